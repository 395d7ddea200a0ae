import Formats
import Foundation
import GPSCore
import TrackModel
import Visits

/// The stays and moves of an export's time as places (docs/TIMELINE.md, "Exports"): a stay at its
/// centre from its start, a move at its start, each with the fields that say what it was
/// (`trailbook` = `visit` or `activity`, `until`, a stay's `place` when it has a name, a move's
/// `activity_type`, `distance_m` and where it ended). An import reads them back as what Trailbook
/// said (``VisitService/said(store:from:to:account:)``), as it reads Google's visits and
/// activities: the stays keep their names and the moves their modes.
public struct TimelinePlaces: Sendable {
    /// The field that marks a record as a stay or move an export wrote.
    public static let key = "trailbook"

    public var rules: VisitRules
    public var devices: DeviceFilter
    public var zone: TimeZone

    public init(rules: VisitRules, devices: DeviceFilter, zone: TimeZone) {
        self.rules = rules
        self.devices = devices
        self.zone = zone
    }

    /// The stays and moves that overlap `[from, to)`, as places.
    func places(store: any TrackStoring, from: Int64, to: Int64) async throws -> [TrackExport.Place] {
        let found = try await VisitService.find(
            store: store, fromMilliseconds: from, toMilliseconds: to, devices: devices, rules: rules, zone: zone)
        return Self.places(found)
    }

    /// `found`'s stays and moves (a still one aside) as places.
    static func places(_ found: VisitFindings) -> [TrackExport.Place] {
        let stays = found.visits.map { v in
            var fields = [(key: key, value: "visit"), (key: "until", value: LocalTime.utc(v.end))]
            if let id = v.place, let name = found.places[id]?.name { fields.append((key: "place", value: name)) }
            return TrackExport.Place(
                id: v.id ?? 0, milliseconds: v.start, coordinate: v.center, altitude: nil, notes: [], photos: [],
                fields: fields)
        }
        let moves = found.trips.compactMap { t -> TrackExport.Place? in
            guard let word = word(t.mode) else { return nil }
            return TrackExport.Place(
                id: t.id ?? 0, milliseconds: t.start, coordinate: t.from, altitude: nil, notes: [], photos: [],
                fields: [
                    (key: key, value: "activity"), (key: "until", value: LocalTime.utc(t.end)),
                    (key: "activity_type", value: word), (key: "distance_m", value: String(format: "%.1f", t.distance)),
                    (key: "end_latitude", value: String(format: "%.7f", t.to.latitude)),
                    (key: "end_longitude", value: String(format: "%.7f", t.to.longitude)),
                ])
        }
        return stays + moves
    }

    /// The activity word an import reads as `mode` (``GPSCore/MotionActivity/init(word:)``); nil
    /// for `still`.
    static func word(_ mode: TravelMode) -> String? {
        switch mode {
        case .still: nil
        case .walking: "walking"
        case .running: "running"
        case .cycling: "cycling"
        case .car: "driving"
        case .train: "in_train"
        case .plane: "flying"
        }
    }
}
