/// The small table of `suggest` a report shows for a record kind: the bins that pass the
/// sample rule, best lift first, and the coming windows, already in words.
public struct SuggestionTable: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var condition: String
        public var bin: String
        public var count: Int
        public var lift: Double

        public init(condition: String, bin: String, count: Int, lift: Double) {
            self.condition = condition
            self.bin = bin
            self.count = count
            self.lift = lift
        }
    }

    public var kind: String
    /// e.g. "93 records over 270.0 h out there".
    public var basis: String
    public var rows: [Row]
    /// Local times and why, e.g. "Sat 3 Oct 07:00–07:30: day_phase dawn, moon_phase last quarter".
    public var windows: [String]

    public init(kind: String, basis: String, rows: [Row], windows: [String]) {
        self.kind = kind
        self.basis = basis
        self.rows = rows
        self.windows = windows
    }

    /// What the `suggestions` partial reads.
    struct Section: Encodable {
        struct Table: Encodable {
            var kind: String
            var basis: String
            var hasRows: Bool
            var rows: [Row]
            var hasWindows: Bool
            var windows: [String]
        }
        struct Row: Encodable {
            var condition: String
            var bin: String
            var count: Int
            var lift: String
        }
        var tables: [Table]
    }

    /// The section of `tables` (nil: none to show).
    static func section(_ tables: [SuggestionTable]) -> Section? {
        guard !tables.isEmpty else { return nil }
        return Section(
            tables: tables.map { t in
                Section.Table(
                    kind: t.kind, basis: t.basis, hasRows: !t.rows.isEmpty,
                    rows: t.rows.map { r in
                        Section.Row(
                            condition: r.condition.replacingOccurrences(of: "_", with: " "), bin: r.bin,
                            count: r.count, lift: HTML.number(r.lift))
                    },
                    hasWindows: !t.windows.isEmpty, windows: t.windows)
            })
    }
}
