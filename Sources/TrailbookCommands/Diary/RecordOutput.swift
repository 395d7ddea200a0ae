import Foundation
import GPSCore
import TrackStore
import TrailbookKit

enum RecordText {
    /// `record 5  2026-06-14 08:31:05  47.37690 8.54170  manual` then notes, photos, fields indented.
    static func lines(_ r: LocationRecord, zone: TimeZone, store: any TrackStoring) -> [String] {
        let id = r.id.map { "record \($0)" } ?? "point"
        let place = String(format: "%.6f %.6f", r.coordinate.latitude, r.coordinate.longitude)
        var lines = [
            "\(id)  \(LocalTime.format(r.milliseconds, zone: zone))  \(place)" + (r.manual ? "  (marked)" : "")
        ]
        for n in r.notes {
            let text = n.text.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append("  note \(n.id): " + (text.first.map(String.init) ?? ""))
            lines += text.dropFirst().map { "    " + $0 }
        }
        for p in r.photos { lines.append("  photo \(p.name): \(store.mediaDirectory)/\(p.file)") }
        if !r.fields.isEmpty { lines.append("  " + r.fields.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")) }
        if let words = ConditionsWords.line(r.conditions) { lines.append("  " + words) }
        return lines
    }
}

/// Prints one JSON document.
func printJSON<T: Encodable>(snakeCase: Bool = false, _ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    if snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
