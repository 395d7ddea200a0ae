import Foundation
import GPSCore
import Reports
import TrackModel
import Visits

/// The documented JSON of `summary` (keys in snake case: `distance_m`, `moving_s`, ...).
public struct SummaryJSON: Encodable, Sendable {
    /// A ride's figures (`summary RIDE`); days give their kept moves instead.
    public var rides: [Ride]?
    public var moves: [Ride]?
    public var total: Ride?

    /// A ride's, a move's or the total's figures.
    public struct Ride: Encodable, Sendable {
        /// The ride's id, or the kept move's (nil for one worked out, not kept).
        public var id: Int64?
        /// A move's mode ("walking", "flying", ...).
        public var mode: String?
        /// The ride's device (nil for the total).
        public var device: String?
        public var start: String?
        public var end: String?
        public var points: Int
        public var distanceM: Double
        public var elapsedS: Double
        public var movingS: Double
        public var averageMovingSpeedMps: Double?
        public var maxSpeedMps: Double?
        public var climbM: Double
        public var descentM: Double
        public var minAltitudeM: Double?
        public var maxAltitudeM: Double?
        public var bounds: [String: Double]?
        public var splits: [Split]
        public var quality: Quality
        /// The sensors' values over the points that carry them (absent when none did).
        public var heartRateBpm: Sensor?
        public var cadenceRpm: Sensor?
        public var powerW: Sensor?
        public var temperatureC: Sensor?

        public struct Sensor: Encodable, Sendable {
            public var average: Double
            public var min: Int
            public var max: Int
            public var points: Int

            init?(_ r: RideStatistics.SensorRange?) {
                guard let r else { return nil }
                (average, min, max, points) = ((r.average * 10).rounded() / 10, r.min, r.max, r.points)
            }
        }

        public struct Split: Encodable, Sendable {
            public var index: Int
            public var distanceM: Double
            /// Moving time.
            public var timeS: Double
            /// Stops included.
            public var elapsedS: Double
            /// The rest after the last full split.
            public var partial: Bool
            /// Moving speed.
            public var speedMps: Double
        }

        public struct Quality: Encodable, Sendable {
            public var modes: [String: Int]
            public var hdopMin: Double?
            public var hdopMedian: Double?
            public var hdopMax: Double?
            public var segments: Int
            public var gaps: [Gap]
            public var dropped: [String: Int]
        }

        public struct Gap: Encodable, Sendable {
            public var start: String
            public var seconds: Double
        }

        public init(id: Int64?, device: String? = nil, stats s: RideStatistics, zone: TimeZone) {
            func r(_ v: Double, _ places: Double = 1) -> Double { (v * places).rounded() / places }
            self.id = id
            self.device = device
            start = s.start.map { LocalTime.iso($0, zone: zone) }
            end = s.end.map { LocalTime.iso($0, zone: zone) }
            points = s.points
            distanceM = r(s.distance, 10)
            elapsedS = r(s.elapsed, 10)
            movingS = r(s.moving, 10)
            averageMovingSpeedMps = s.averageMovingSpeed.map { r($0, 1000) }
            maxSpeedMps = s.maxSpeed.map { r($0, 1000) }
            climbM = r(s.climb, 10)
            descentM = r(s.descent, 10)
            minAltitudeM = s.minAltitude.map { r($0, 100) }
            maxAltitudeM = s.maxAltitude.map { r($0, 100) }
            if let so = s.south, let w = s.west, let n = s.north, let e = s.east {
                bounds = ["south": so, "west": w, "north": n, "east": e]
            }
            splits = s.splits.map {
                Split(
                    index: $0.index, distanceM: r($0.distance, 10), timeS: r($0.time, 10),
                    elapsedS: r($0.elapsed, 10), partial: $0.isPartial, speedMps: r($0.speed, 1000))
            }
            quality = Quality(
                modes: s.quality.modes, hdopMin: s.quality.hdopMin, hdopMedian: s.quality.hdopMedian,
                hdopMax: s.quality.hdopMax, segments: s.quality.segments,
                gaps: s.quality.gaps.map { Gap(start: LocalTime.utc($0.start), seconds: $0.seconds) },
                dropped: s.quality.drops)
            heartRateBpm = Sensor(s.heartRate)
            cadenceRpm = Sensor(s.cadence)
            powerW = Sensor(s.power)
            temperatureC = Sensor(s.temperature)
        }
    }
}

extension SummaryJSON {
    /// The document of a selection's statistics.
    public init(
        _ statistics: (rides: [(ride: StoredRide, statistics: RideStatistics)], total: RideStatistics?),
        zone: TimeZone
    ) {
        rides = statistics.rides.map { Ride(id: $0.ride.id, device: $0.ride.device, stats: $0.statistics, zone: zone) }
        total = statistics.total.map { Ride(id: nil, stats: $0, zone: zone) }
    }

    /// The document of the kept moves of days (``RideSelection/moveStatistics(_:)``).
    public init(moves: (moves: [(move: Trip, statistics: RideStatistics)], total: RideStatistics?), zone: TimeZone) {
        self.moves = moves.moves.map {
            var move = Ride(id: $0.move.id, stats: $0.statistics, zone: zone)
            move.mode = $0.move.mode.rawValue
            return move
        }
        total = moves.total.map { Ride(id: nil, stats: $0, zone: zone) }
    }
}
