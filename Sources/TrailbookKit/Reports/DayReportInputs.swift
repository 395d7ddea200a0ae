import Foundation
import GPSCore
import Reports
import TrackStore

/// What the day report shows, read from the store: the use case behind `report day`, the
/// overlay's pages and (next) the server's day page.
public enum DayReportInputs {
    /// The rides of `day` in `zone` with their statistics (splits per mile when `imperial`), the
    /// records with their notes, fields and photos (embedded as data URLs when `embedPhotos`,
    /// else linked), and the day's summary.
    public static func load(
        _ day: CivilDate, store: TrackStore, zone: TimeZone, imperial: Bool, embedPhotos: Bool,
        devices: DeviceFilter = .all
    ) throws -> DayReportInput {
        let (from, to) = LocalDay.range(day, in: zone)
        let stored = try store.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices)
        var byRide: [Int64: [TrackPoint]] = [:]
        for p in try store.pointsWithSegments(fromMilliseconds: from, toMilliseconds: to, devices: devices) {
            byRide[p.ride, default: []].append(TrackPoint(fix: p.fix, segment: p.segment))
        }
        var options = StatisticsOptions()
        if imperial { options.splitLength = 1609.344 }
        let rides = stored.compactMap { r -> DayReportInput.Ride? in
            guard let points = byRide[r.id], !points.isEmpty else { return nil }
            return .init(
                id: r.id, points: points, statistics: RideStatistics.compute(points, drops: r.drops, options: options))
        }
        let records = try store.records(fromMilliseconds: from, toMilliseconds: to).map { r in
            DayReportInput.Record(
                id: r.id!, milliseconds: r.milliseconds, coordinate: r.coordinate, notes: r.notes.map(\.text),
                photos: r.photos.map { p in
                    let file = store.mediaDirectory + "/" + p.file
                    if embedPhotos, let data = FileManager.default.contents(atPath: file) {
                        return (p.name, "data:image/jpeg;base64," + data.base64EncodedString())
                    }
                    return (p.name, URL(fileURLWithPath: file).absoluteString)
                },
                fields: r.fields.map { ($0.key, $0.value.description) })
        }
        return DayReportInput(
            date: day.description, timeZone: zone, summary: try store.daySummary(day), rides: rides, records: records)
    }
}
