import Foundation
import GPSCore
import Pipeline
import Reports
import Tides
import TrackModel

/// The `suggest` tables the reports show, one per record kind declared in the config, each
/// computed once however many pages show it.
public final class SuggestTables {
    let service: SuggestService
    let kinds: [String: RecordKind]
    let now: Int64
    private var made: [String: SuggestionTable] = [:]
    /// Rows and windows a report shows at most.
    static let rows = 5
    static let windows = 3

    public init(
        store: any TrackStoring, zone: TimeZone, kinds: [String: RecordKind], now: Int64, tide: TideStation? = nil,
        account: String? = nil
    ) {
        service = SuggestService(store: store, zone: zone, tide: tide, account: account)
        self.kinds = kinds
        self.now = now
    }

    /// The kind names of `records` (their `kind` field).
    public static func kindNames(_ records: [LocationRecord]) -> Set<String> {
        Set(records.compactMap { r in r.fields.first { $0.key == "kind" }.map(\.value.description) })
    }

    /// The tables of the declared kinds among `names`, by name.
    public func tables(for names: Set<String>) async throws -> [SuggestionTable] {
        var tables: [SuggestionTable] = []
        for name in names.sorted() {
            guard let kind = kinds[name] else { continue }
            if let table = made[name] {
                tables.append(table)
                continue
            }
            let report = try await service.suggest(kind: kind, now: now)
            let zone = service.zone
            let table = SuggestionTable(
                kind: name,
                basis: counted(report.counted, "record") + " over "
                    + String(
                        format: report.basis == .timeOutThere
                            ? "%.1f h out there"
                            : "the %.1f h of the days they span (records alone, the weaker comparison)",
                        report.hours),
                rows: report.suggestions.prefix(Self.rows).map {
                    .init(condition: $0.condition, bin: $0.bin, count: $0.count, lift: $0.lift)
                },
                windows: report.windows.prefix(Self.windows).map { w in
                    let date = LocalTime.today(in: zone, now: Date(timeIntervalSince1970: Double(w.start) / 1000))
                    let weekday = OverlayReport.weekday(date.description).map { $0 + " " } ?? ""
                    return
                        "\(weekday)\(date) \(LocalTime.clock(w.start, zone: zone))–\(LocalTime.clock(w.end, zone: zone)): "
                        + w.why.map { $0.replacingOccurrences(of: "_", with: " ") }.joined(separator: ", ")
                })
            made[name] = table
            tables.append(table)
        }
        return tables
    }
}
