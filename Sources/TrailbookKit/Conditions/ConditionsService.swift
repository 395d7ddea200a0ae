import Conditions
import Foundation
import GPSCore
import Tides
import TrackModel

/// The sky at a moment and place, with the events of the local day in a time zone; and the
/// tide at the configured station.
public struct ConditionsService: Sendable {
    public let zone: TimeZone
    /// The station whose tide records get; nil: no tide.
    public let tide: TideStation?

    public init(zone: TimeZone, tide: TideStation? = nil) {
        self.zone = zone
        self.tide = tide
    }

    /// The zone whose local day the rise and set at `longitude` go by: `configured` when its
    /// offset at `ms` is within 3 hours of the place's mean solar time (longitude / 15°, to the
    /// hour); else a fixed offset at that solar time. A place far from the configured zone (150° W
    /// with Europe/Zurich) would otherwise get a rise of one day and a set of the day before.
    public static func zone(near longitude: Double, at ms: Int64, configured: TimeZone) -> TimeZone {
        let solar = Int((longitude / 15).rounded()) * 3600
        let offset = configured.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000))
        guard abs(offset - solar) > 3 * 3600 else { return configured }
        return TimeZone(secondsFromGMT: solar) ?? configured
    }

    /// The tide at `ms` at the station, with the high and low waters of the local day.
    public func tide(at ms: Int64) -> (moment: TideMoment, day: [TideExtreme])? {
        guard let tide else { return nil }
        let date = Date(timeIntervalSince1970: Double(ms) / 1000)
        guard let moment = TidePrediction.moment(tide, at: date) else { return nil }
        return (moment, TidePrediction.extremes(tide, in: localDay(of: ms).interval))
    }

    /// The local day holding `ms` in the zone, as an interval.
    public func localDay(of ms: Int64) -> (date: CivilDate, interval: DateInterval) {
        let date = LocalTime.today(in: zone, now: Date(timeIntervalSince1970: Double(ms) / 1000))
        let range = LocalDay.range(date, in: zone)
        return (
            date,
            DateInterval(
                start: Date(timeIntervalSince1970: Double(range.from) / 1000),
                end: Date(timeIntervalSince1970: Double(range.to) / 1000))
        )
    }

    /// Sun, Moon and the solunar periods at `ms` for `coordinate`.
    public func sky(at ms: Int64, coordinate: Coordinate) -> SkyConditions {
        Sky.conditions(
            at: Date(timeIntervalSince1970: Double(ms) / 1000), latitude: coordinate.latitude,
            longitude: coordinate.longitude, day: localDay(of: ms).interval)
    }

    /// The computed part of a record's conditions: what `suggest` bins and the day report shows.
    public func snapshot(at ms: Int64, coordinate: Coordinate) -> [ConditionValue] {
        let sky = sky(at: ms, coordinate: coordinate)
        func number(_ key: String, _ value: Double, _ places: Double = 100) -> ConditionValue {
            ConditionValue(key: key, value: .number((value * places).rounded() / places), source: .computed)
        }
        func text(_ key: String, _ value: String) -> ConditionValue {
            ConditionValue(key: key, value: .text(value), source: .computed)
        }
        var tideValues: [ConditionValue] = []
        if let (moment, _) = tide(at: ms), let station = tide {
            tideValues = [
                number("tide.height_m", moment.height), text("tide.state", moment.state.rawValue),
                text("tide.station", station.name),
            ]
        }
        return [
            number("moon.age_days", sky.moon.age),
            number("moon.elevation_deg", sky.moon.elevation),
            number("moon.illumination", sky.moon.illumination, 1000),
            number("moon.phase_angle_deg", sky.moon.phaseAngle),
            text("moon.phase_name", sky.moon.phaseName.rawValue),
            text("solunar.period", sky.solunarNow?.rawValue ?? "none"),
            number("sun.azimuth_deg", sky.sun.azimuth),
            number("sun.elevation_deg", sky.sun.elevation),
            text("sun.phase", sky.sun.phase.rawValue),
        ] + tideValues
    }

    /// What a coordinate typed by a person must be, as a sentence; nil when it is fine.
    public static func problem(latitude: Double, longitude: Double) -> String? {
        if !latitude.isFinite || abs(latitude) > 90 { return "latitude \(latitude) is outside -90 to 90 degrees" }
        if !longitude.isFinite || abs(longitude) > 180 {
            return "longitude \(longitude) is outside -180 to 180 degrees"
        }
        return nil
    }
}
