import Foundation
import GPSCore
import TrackModel
import Visits

/// `trailbook visits --json`: SI units, times in UTC ISO 8601 with milliseconds.
public struct VisitsJSON: Encodable, Sendable {
    public struct VisitEntry: Encodable, Sendable {
        /// The kept stay's id (absent when the days were worked out on reading).
        var id: Int64?
        var start: String
        var end: String
        var seconds: Double
        var lat: Double
        var lon: Double
        var spreadMetres: Double
        var fixes: Int
        var place: Int?
        var name: String
        var ongoing: Bool
        /// The user said which place it was (`trailbook visit place`).
        var corrected: Bool
        /// The place's street address from the user's own geocoder.
        var address: String?
        var locality: Locality?
        /// ISO 8601 with the offset of where the visit was (the gazetteer's zone, else the listing's).
        var localStart: String
        var localEnd: String

        enum CodingKeys: String, CodingKey {
            case id, start, end, seconds, lat, lon, fixes, place, name, ongoing, corrected, address, locality
            case spreadMetres = "spread_m"
            case localStart = "local_start"
            case localEnd = "local_end"
        }
    }

    public struct TripEntry: Encodable, Sendable {
        /// The kept move's id (absent when the days were worked out on reading).
        var id: Int64?
        var start: String
        var end: String
        var seconds: Double
        var mode: String
        var distanceMetres: Double
        var movingSeconds: Double
        var medianSpeed: Double
        var highSpeed: Double
        var from: [Double]
        var to: [Double]
        var fixes: Int
        /// The user gave the mode (`trailbook visit mode`).
        var corrected: Bool
        /// Where the mode comes from: "speeds", "phone" (its activity, or Google's) or "you".
        var modeFrom: String

        enum CodingKeys: String, CodingKey {
            case id, start, end, seconds, mode, from, to, fixes, corrected
            case modeFrom = "mode_from"
            case distanceMetres = "distance_m"
            case movingSeconds = "moving_s"
            case medianSpeed = "median_speed_mps"
            case highSpeed = "high_speed_mps"
        }
    }

    public struct PlaceEntry: Encodable, Sendable {
        var id: Int
        var lat: Double
        var lon: Double
        var visits: Int
        var seconds: Double
        var name: String?
        var suggestion: String?
        var address: String?
        var locality: Locality?
    }

    /// The gazetteer's populated place nearest a place.
    public struct Locality: Encodable, Sendable {
        var name: String
        var admin1: String
        var country: String
        var timeZone: String

        init(_ e: GazetteerEntry) {
            name = e.name
            admin1 = e.admin1
            country = e.country
            timeZone = e.zone
        }

        enum CodingKeys: String, CodingKey {
            case name, admin1, country
            case timeZone = "time_zone"
        }
    }

    var timeZone: String
    public private(set) var visits: [VisitEntry]
    public private(set) var trips: [TripEntry]
    var places: [PlaceEntry]
    var points: Int
    var passedOver: Int

    enum CodingKeys: String, CodingKey {
        case visits, trips, places, points
        case timeZone = "time_zone"
        case passedOver = "passed_over"
    }

    public init(_ f: VisitFindings, zone: TimeZone) {
        func round(_ x: Double, _ places: Double = 1) -> Double { (x * places).rounded() / places }
        timeZone = zone.displayIdentifier
        visits = f.visits.map { v in
            VisitEntry(
                id: v.id, start: LocalTime.utc(v.start), end: LocalTime.utc(v.end), seconds: v.seconds,
                lat: round(v.center.latitude, 1e6), lon: round(v.center.longitude, 1e6), spreadMetres: round(v.spread),
                fixes: v.fixes, place: v.place, name: f.name(of: v), ongoing: v.ongoing, corrected: v.placeCorrected,
                address: f.address(of: v),
                locality: v.place.flatMap { f.localities[$0] }.map(Locality.init),
                localStart: LocalTime.iso(v.start, zone: f.zone(of: v) ?? zone),
                localEnd: LocalTime.iso(v.end, zone: f.zone(of: v) ?? zone))
        }
        trips = f.trips.map { t in
            TripEntry(
                id: t.id, start: LocalTime.utc(t.start), end: LocalTime.utc(t.end), seconds: t.seconds,
                mode: t.mode.rawValue, distanceMetres: round(t.distance), movingSeconds: t.movingSeconds,
                medianSpeed: round(t.medianSpeed, 100),
                highSpeed: round(t.highSpeed, 100), from: [t.from.latitude, t.from.longitude],
                to: [t.to.latitude, t.to.longitude], fixes: t.fixes, corrected: t.modeCorrected,
                modeFrom: t.modeFrom.rawValue)
        }
        places = f.places.values.sorted { $0.id < $1.id }.map { p in
            PlaceEntry(
                id: p.id, lat: round(p.center.latitude, 1e6), lon: round(p.center.longitude, 1e6), visits: p.visits,
                seconds: p.seconds, name: p.name, suggestion: p.suggestion, address: f.addresses[p.id],
                locality: f.localities[p.id].map(Locality.init))
        }
        points = f.points
        passedOver = f.passedOver
    }

    /// One line per visit or trip, in the local time where it happened (the place's zone from
    /// the gazetteer, written with its offset when it is not `zone`'s then: `19:59+01:00`).
    public static func line(_ m: Movement, findings f: VisitFindings, zone: TimeZone) -> String {
        func clock(_ ms: Int64, _ there: TimeZone) -> String { LocalTime.clock(ms, there: there, listing: zone) }
        switch m {
        case .visit(let v):
            let here = f.zone(of: v) ?? zone
            let span = clock(v.start, here) + "–" + clock(v.end, here)
            return "\(span)  ⌂ \(f.name(of: v))  · \(DayTimeline.minutes(v.end - v.start))"
                + (f.address(of: v).map { " · \($0)" } ?? "") + (f.locality(of: v).map { " · \($0)" } ?? "")
                + (v.ongoing ? " (the last fix so far)" : "")
                + (v.placeCorrected ? " (as you said)" : "")
        case .trip(let t):
            let span = clock(t.start, f.zone(at: t.start) ?? zone) + "–" + clock(t.end, f.zone(at: t.end) ?? zone)
            let kmh = t.movingSeconds > 0 ? String(format: ", %.0f km/h typical", t.medianSpeed * 3.6) : ""
            return "\(span)  → \(t.mode.rawValue) \(VisitService.distance(t.distance))"
                + "  · \(DayTimeline.minutes(t.end - t.start))\(kmh)"
                + (t.modeFrom == .you ? " (as you said)" : t.modeFrom == .phone ? " (as the phone said)" : "")
        }
    }
}

/// `trailbook visit place|mode --json` and `visit corrections --json`.
public struct VisitCorrectionJSON: Encodable, Sendable {
    var correction: Int64
    var start: String
    var end: String
    var place: Int?
    var mode: String?
    let span: ClosedRange<Int64>

    enum CodingKeys: String, CodingKey { case correction, start, end, place, mode }

    public init(correction: Int64, start: Int64, end: Int64, place: Int? = nil, mode: TravelMode? = nil) {
        self.correction = correction
        self.start = LocalTime.utc(start)
        self.end = LocalTime.utc(end)
        self.place = place
        self.mode = mode?.rawValue
        span = start...max(start, end)
    }

    /// "The trip 17:30–17:39: train (correction 1)."; "The visit 12:03–12:45: at place 3 (correction 2)."
    public func line(zone: TimeZone) -> String {
        let times = LocalTime.clock(span.lowerBound, zone: zone) + "–" + LocalTime.clock(span.upperBound, zone: zone)
        let what = mode.map { "The trip \(times): \($0)" } ?? "The visit \(times): at place \(place ?? 0)"
        return what + " (correction \(correction))."
    }

    /// What an edit of the timeline's shape did (`visit rm`, `times`, `merge`, `split`, `add`):
    /// `{"correction", "kind" (visit|trip), "start", "end"}` (UTC).
    public struct Edit: Encodable, Sendable {
        var correction: Int64
        var kind: String
        var start: String
        var end: String
        let span: ClosedRange<Int64>
        let verb: String

        enum CodingKeys: String, CodingKey { case correction, kind, start, end }

        /// `verb`: what became of it ("is gone from your timeline").
        public init(_ edited: VisitCorrections.Edited, verb: String) {
            (correction, kind, self.verb) = (edited.correction, edited.kind, verb)
            (start, end) = (LocalTime.utc(edited.start), LocalTime.utc(edited.end))
            span = edited.start...max(edited.start, edited.end)
        }

        /// "The visit 12:04–12:45 is gone from your timeline (correction 7; trailbook visit undo 7 takes it back)."
        public func line(zone: TimeZone) -> String {
            let times =
                LocalTime.clock(span.lowerBound, zone: zone) + "–" + LocalTime.clock(span.upperBound, zone: zone)
            return "The \(kind) \(times) \(verb) (correction \(correction); trailbook visit undo \(correction) "
                + "takes it back)."
        }
    }

    public struct List: Encodable, Sendable {
        struct Entry: Encodable, Sendable {
            var id: Int64
            var at: String
            var kind: String
            var value: String
            /// When it was made (UTC).
            var made: String
        }

        var corrections: [Entry]

        public init(_ list: [MovementCorrection]) {
            corrections = list.map {
                Entry(
                    id: $0.id, at: LocalTime.utc($0.milliseconds), kind: $0.kind.rawValue, value: $0.value,
                    made: LocalTime.utc($0.madeMilliseconds))
            }
        }
    }
}
