/// How `watch` prints fixes: a line of text each, or the decode columns as CSV or JSON Lines.
public enum FixFormat: String, CaseIterable, Sendable { case text, csv, jsonl }
