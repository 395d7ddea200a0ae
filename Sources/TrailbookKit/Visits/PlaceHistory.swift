import Foundation
import GPSCore
import TrackModel
import Visits

/// A place's history: every visit to it (its day, hours and length), the first and the last,
/// the time spent there and the days it was visited, read from the account's whole timeline (the
/// kept stays, edits and corrections applied, as every reader reads them).
public struct PlaceHistory: Encodable, Sendable {
    public struct Stay: Encodable, Sendable {
        /// The local day it began, its start and end (ISO 8601 with the offset), its length.
        public var day: String
        public var start: String
        public var end: String
        public var seconds: Int
        /// "07:30–17:05".
        public var hours: String
    }

    public var id: Int
    public var name: String
    public var lat: Double
    public var lon: Double
    public var visits: [Stay]
    public var first: String?
    public var last: String?
    public var seconds: Int
    public var days: Int

    enum CodingKeys: String, CodingKey {
        case id, name, lat, lon, visits, first, last, days
        case seconds = "total_s"
    }

    /// The history of the place `text` names (a number, a found place's name, one of the account's
    /// own places), as `visit place` resolves it.
    public static func load(
        _ text: String, store: any TrackStoring, devices: DeviceFilter, rules: VisitRules, zone: TimeZone
    ) async throws -> PlaceHistory {
        let corrections = VisitCorrections(store: store, devices: devices, rules: rules, zone: zone)
        let id = try await corrections.resolve(text)
        let found = try await VisitService.find(
            store: store, fromMilliseconds: .min, toMilliseconds: .max, devices: devices, rules: rules, zone: zone)
        let account = devices.account
        let known = try await store.read { try $0.foundPlaces(account: account) }.first { $0.id == Int64(id) }
        let visits = found.visits.filter { $0.place == id }.sorted { $0.start < $1.start }
        let stays = visits.map { v in
            // An end on a later day says so: "17:40–07:29 next day".
            let (first, last) = (LocalDay.of(v.start, in: zone), LocalDay.of(v.end, in: zone))
            let later = last.daysSinceEpoch - first.daysSinceEpoch
            let after = later == 1 ? " next day" : later > 1 ? " \(later) days later" : ""
            return Stay(
                day: first.description, start: LocalTime.iso(v.start, zone: zone),
                end: LocalTime.iso(v.end, zone: zone), seconds: Int(((v.end - v.start) / 1000)),
                hours: LocalTime.clock(v.start, zone: zone) + "–" + LocalTime.clock(v.end, zone: zone) + after)
        }
        let place = found.places[id]
        let center = place?.center ?? known?.center ?? Coordinate(latitude: 0, longitude: 0)
        return PlaceHistory(
            id: id, name: place.map(VisitFindings.name(of:)) ?? known?.name ?? "place \(id)",
            lat: center.latitude, lon: center.longitude, visits: stays, first: stays.first?.start,
            last: stays.last?.end, seconds: stays.map(\.seconds).reduce(0, +), days: Set(stays.map(\.day)).count)
    }

    /// The lines `place show` prints.
    public var lines: [String] {
        var lines = ["\(name) (place \(id), \(String(format: "%.5f, %.5f", lat, lon)))"]
        guard let first, let last else { return lines + ["No visits there yet."] }
        lines.append(
            "\(counted(visits.count, "visit")) on \(counted(days, "day")), \(LocalTime.hoursAndMinutes(Double(seconds))) "
                + "in all; first \(first.prefix(16).replacingOccurrences(of: "T", with: " ")), last "
                + last.prefix(16).replacingOccurrences(of: "T", with: " "))
        for v in visits { lines.append("  \(v.day)  \(v.hours)  \(LocalTime.hoursAndMinutes(Double(v.seconds)))") }
        return lines
    }
}
