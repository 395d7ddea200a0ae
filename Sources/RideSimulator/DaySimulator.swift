import Foundation
import GPSCore
import NMEA

/// Simulates a day of stays and trips at 1 Hz, with the truth kept beside what the receiver
/// reports, for testing the event detector: stays with multipath noise (a slowly wandering
/// offset, as reflections give, with the receiver's error estimate saying how large), trips
/// in straight lines at a steady speed, and spells without a fix. The NMEA (RMC, GGA, GST)
/// is what a receiver would send.
public struct DaySimulator {
    public enum Leg: Sendable {
        /// Stand still for `seconds`, the reported position wandering up to `noise` metres.
        case stay(seconds: Int, noise: Double)
        /// Go straight to `to` at `speed` m/s.
        case travel(to: Coordinate, speed: Double)
        /// No fix for `seconds` (the receiver keeps reporting), standing still.
        case noFix(seconds: Int)
    }

    public struct Epoch: Sendable {
        public var fix: Fix
        public var sentences: [String]
        /// Where the device really was.
        public var truth: Coordinate
    }

    /// The epochs of `legs` from `start`, one per second from `date` at `startTimeOfDay` (ms).
    public static func run(
        from start: Coordinate, date: CivilDate, startTimeOfDay: Int, legs: [Leg], seed: UInt64
    ) -> [Epoch] {
        var random = SeededGenerator(seed: seed)
        var position = start
        var epochs: [Epoch] = []
        var offset = (east: 0.0, north: 0.0)
        func emit(noise: Double?, speed: Double, track: Double?) {
            let ms = startTimeOfDay + epochs.count * 1000
            var fix = Fix()
            fix.date = date.adding(days: ms / 86_400_000)
            fix.timeOfDay = ms % 86_400_000
            if let noise {
                // An AR(1) offset: correlated from second to second, kept within `noise`.
                let sigma = Swift.max(1, noise / 2)
                let keep = 0.95
                offset.east = keep * offset.east + gaussian(&random) * sigma * (1 - keep * keep).squareRoot()
                offset.north = keep * offset.north + gaussian(&random) * sigma * (1 - keep * keep).squareRoot()
                let size = (offset.east * offset.east + offset.north * offset.north).squareRoot()
                if size > noise {
                    offset.east *= noise / size
                    offset.north *= noise / size
                }
                let bearing = atan2(offset.east, offset.north) * 180 / .pi
                fix.coordinate = Geodesy.destination(
                    from: position, bearing: bearing,
                    distance: (offset.east * offset.east + offset.north * offset.north).squareRoot())
                fix.mode = .threeD
                fix.quality = .gps
                fix.satellitesUsed = 9
                fix.hdop = (Swift.max(0.8, noise / 10) * 10).rounded() / 10
                fix.latitudeError = (sigma * 10).rounded() / 10
                fix.longitudeError = (sigma * 10).rounded() / 10
                fix.altitudeMSL = 420
                fix.geoidSeparation = 47.3
                fix.speed = speed
                fix.track = track
            } else {
                fix.mode = .noFix
                fix.quality = .invalid
                fix.satellitesUsed = 0
            }
            epochs.append(Epoch(fix: fix, sentences: sentences(for: fix), truth: position))
        }
        for leg in legs {
            switch leg {
            case .stay(let seconds, let noise):
                for _ in 0..<seconds { emit(noise: noise, speed: 0, track: nil) }
            case .noFix(let seconds):
                for _ in 0..<seconds { emit(noise: nil, speed: 0, track: nil) }
            case .travel(let to, let speed):
                let bearing = Geodesy.bearing(from: position, to: to)
                var left = Geodesy.haversineDistance(position, to)
                offset = (0, 0)
                while left > 0 {
                    let step = Swift.min(speed, left)
                    position = Geodesy.destination(from: position, bearing: bearing, distance: step)
                    left -= step
                    emit(noise: 3, speed: speed, track: bearing)
                }
                position = to
            }
        }
        return epochs
    }

    /// A standard normal value (Box-Muller).
    private static func gaussian(_ random: inout SeededGenerator) -> Double {
        let u = Swift.max(1e-12, random.uniform(0...1))
        let v = random.uniform(0...1)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    private static func sentences(for fix: Fix) -> [String] {
        typealias W = NMEASentenceWriter
        let time = W.time(fix.timeOfDay ?? 0)
        guard let c = fix.coordinate else {
            return [
                W.sentence("GPRMC,\(time),V,,,,,,,\(W.date(fix.date!)),,,N"),
                W.sentence("GPGGA,\(time),,,,,0,00,99.99,,,,,,"),
            ]
        }
        let lat = W.angle(c.latitude, degreeDigits: 2, positive: "N", negative: "S")
        let lon = W.angle(c.longitude, degreeDigits: 3, positive: "E", negative: "W")
        let knots = (fix.speed ?? 0) / Units.metresPerSecondPerKnot
        let track = fix.track.map { W.fixed($0, 2) } ?? ""
        return [
            W.sentence("GPRMC,\(time),A,\(lat),\(lon),\(W.fixed(knots, 3)),\(track),\(W.date(fix.date!)),,,A"),
            W.sentence(
                "GPGGA,\(time),\(lat),\(lon),1,\(W.pad(fix.satellitesUsed ?? 0, 2)),\(W.fixed(fix.hdop ?? 99.99, 2)),"
                    + "\(W.fixed(fix.altitudeMSL ?? 0, 1)),M,\(W.fixed(fix.geoidSeparation ?? 0, 1)),M,,"),
            W.sentence(
                "GPGST,\(time),\(W.fixed(fix.hdop! * 2, 1)),,,,\(W.fixed(fix.latitudeError!, 1)),"
                    + "\(W.fixed(fix.longitudeError!, 1)),\(W.fixed(fix.latitudeError! * 1.5, 1))"),
        ]
    }
}
