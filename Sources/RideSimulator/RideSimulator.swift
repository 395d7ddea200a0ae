import Foundation
import GPSCore
import NMEA

/// Simulates a bicycle ride at 1 Hz and writes it as the NMEA a USB receiver would send.
///
/// The ride is deterministic for a seed, and rides of different seeds differ: the hills (their
/// heights, lengths and phases), the rider's cruising speed, and the base altitude (from the
/// seed and the starting place) all come from it. Speed changes with the slope, stops at lights
/// and a long café stop now and then, a wandering heading with turns, HDOP that
/// drifts and spikes in "urban canyons" (with 2D fixes when few satellites remain), fix loss
/// in "tunnels", and a receiver that alternates between GPS-only (GP talker) and
/// multi-constellation output (GN talker, GPS + GLONASS sky views every third second).
public struct RideSimulator: Sequence, IteratorProtocol {
    /// What to simulate.
    public struct Configuration: Sendable {
        /// UTC date of the first epoch.
        public var startDate: CivilDate
        /// UTC time of day of the first epoch, milliseconds.
        public var startTimeOfDay: Int
        /// Where the ride starts.
        public var origin: Coordinate
        /// Length of the ride in seconds (one epoch per second).
        public var duration: Int
        /// Seed of the random choices.
        public var seed: UInt64

        public init(startDate: CivilDate, startTimeOfDay: Int, origin: Coordinate, duration: Int, seed: UInt64) {
            self.startDate = startDate
            self.startTimeOfDay = startTimeOfDay
            self.origin = origin
            self.duration = duration
            self.seed = seed
        }
    }

    /// One simulated second: the true state and the NMEA text for it.
    public struct Epoch: Sendable {
        /// What the receiver reports (position nil during fix loss).
        public var fix: Fix
        /// The sentences, each ending in CR LF.
        public var sentences: [String]
        /// What really happened, tunnels included: metres travelled since the start, the speed
        /// in m/s and the altitude in metres at this epoch (for testing statistics).
        public var trueDistance: Double
        public var trueSpeed: Double
        public var trueAltitude: Double
    }

    private let configuration: Configuration
    private let terrain: Terrain
    private var random: SeededGenerator
    private var second = 0
    private var position: Coordinate
    private var heading = 90.0
    private var speed = 0.0
    private var distance = 0.0
    private var stopLeft = 20
    private var nextStop = 300
    private var tunnelLeft = 0
    private var nextTunnel = 1500
    private var canyonLeft = 0
    private var nextCanyon = 700
    private var turnLeft = 0
    private var turnRate = 0.0
    private var hdop = 0.9

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        random = SeededGenerator(seed: configuration.seed)
        terrain = Terrain(seed: configuration.seed, origin: configuration.origin)
        position = configuration.origin
        heading = random.uniform(0...360)
    }

    /// The hills and the rider of a seed: drawn from their own generator, so the stops, tunnels
    /// and turns of a seed stay what they were.
    struct Terrain {
        var base: Double
        var hills: [(height: Double, length: Double, phase: Double)]
        var cruise: Double
        var cruiseSwing: Double
        var cruiseLength: Double

        init(seed: UInt64, origin: Coordinate) {
            var g = SeededGenerator(seed: seed ^ 0x5EED_7E44_A1B2_C3D4)
            // The starting place moves the base altitude too: the same seed elsewhere is not the
            // same hills at the same height.
            let place = abs(sin(origin.latitude * 12.9898 + origin.longitude * 78.233) * 43758.5453)
            base = 120 + 700 * (place - place.rounded(.down)) + g.uniform(0...200)
            hills = [
                (g.uniform(20...70), g.uniform(1800...3500), g.uniform(0...6.28)),
                (g.uniform(8...30), g.uniform(600...1200), g.uniform(0...6.28)),
                (g.uniform(2...8), g.uniform(180...320), g.uniform(0...6.28)),
            ]
            cruise = g.uniform(5.0...7.5)
            cruiseSwing = g.uniform(0.8...2.0)
            cruiseLength = g.uniform(1500...2600)
        }

        /// Altitude above mean sea level in metres at `d` metres along the ride.
        func altitude(atDistance d: Double) -> Double {
            hills.reduce(base) { $0 + $1.height * sin(d / $1.length + $1.phase) }
        }
    }

    /// Altitude above mean sea level in metres at `d` metres along this ride: rolling hills.
    public func altitude(atDistance d: Double) -> Double { terrain.altitude(atDistance: d) }

    public mutating func next() -> Epoch? {
        guard second < configuration.duration else { return nil }
        defer { second += 1 }
        step()

        let totalMs = configuration.startTimeOfDay + second * 1000
        var fix = Fix()
        fix.date = configuration.startDate.adding(days: totalMs / 86_400_000)
        fix.timeOfDay = totalMs % 86_400_000
        let multi = (second / 1200) % 2 == 1
        let inViewGPS = 9 + Int(3 * sin(Double(second) / 900))
        let inViewGLONASS = multi ? 6 + Int(2 * cos(Double(second) / 700)) : 0
        var used = Swift.min(12, inViewGPS + inViewGLONASS - 2)
        if canyonLeft > 0 { used = Swift.min(used, 4 + second % 3) }
        fix.satellitesInView = inViewGPS + inViewGLONASS
        if tunnelLeft > 0 {
            fix.mode = .noFix
            fix.quality = .invalid
            fix.satellitesUsed = 0
        } else {
            fix.coordinate = position
            fix.mode = used >= 5 ? .threeD : .twoD
            fix.quality = canyonLeft > 0 ? .gps : .dgps
            fix.altitudeMSL = (terrain.altitude(atDistance: distance) * 10).rounded() / 10
            fix.geoidSeparation = 47.3
            fix.speed = speed
            fix.track = speed > 0.3 ? heading : nil
            fix.hdop = (hdop * 100).rounded() / 100
            fix.vdop = (hdop * 1.4 * 100).rounded() / 100
            fix.pdop = (hdop * 1.7 * 100).rounded() / 100
            fix.satellitesUsed = used
            fix.latitudeError = (hdop * 1.8 * 10).rounded() / 10
            fix.longitudeError = (hdop * 1.5 * 10).rounded() / 10
            fix.altitudeError = (hdop * 3.1 * 10).rounded() / 10
        }
        return Epoch(
            fix: fix, sentences: sentences(for: fix, multi: multi, gps: inViewGPS, glonass: inViewGLONASS),
            trueDistance: distance, trueSpeed: speed, trueAltitude: terrain.altitude(atDistance: distance))
    }

    /// Advances the ride by one second.
    private mutating func step() {
        // Stops: lights and junctions, sometimes a long café stop.
        if stopLeft > 0 {
            stopLeft -= 1
        } else {
            nextStop -= 1
            if nextStop <= 0 {
                stopLeft = random.chance(0.12) ? Int(random.uniform(660...1200)) : Int(random.uniform(15...75))
                nextStop = Int(random.uniform(180...900))
            }
        }
        tunnelLeft = Swift.max(0, tunnelLeft - 1)
        nextTunnel -= 1
        if nextTunnel <= 0 {
            tunnelLeft = Int(random.uniform(20...90))
            nextTunnel = Int(random.uniform(1800...3600))
        }
        canyonLeft = Swift.max(0, canyonLeft - 1)
        nextCanyon -= 1
        if nextCanyon <= 0 {
            canyonLeft = Int(random.uniform(30...120))
            nextCanyon = Int(random.uniform(900...1800))
        }
        // Speed follows a target that drops uphill and rises downhill.
        let slope = (terrain.altitude(atDistance: distance + 10) - terrain.altitude(atDistance: distance)) / 10
        let cruise: Double =
            terrain.cruise + terrain.cruiseSwing * sin(distance / terrain.cruiseLength) - slope * 60
        let target: Double = stopLeft > 0 ? 0 : Swift.min(14, Swift.max(1.5, cruise))
        let change = target - speed
        let jitter: Double = speed > 1 ? random.uniform(-0.15...0.15) : 0
        let accelerated: Double = speed + Swift.max(-1.5, Swift.min(0.8, change)) + jitter
        speed = Swift.max(0, accelerated)
        if stopLeft > 0 && speed < 0.3 { speed = 0 }
        // Heading: a random walk with turns at junctions.
        if turnLeft > 0 {
            heading += turnRate
            turnLeft -= 1
        } else if speed > 1 && random.chance(0.01) {
            turnLeft = 5
            turnRate = (random.chance(0.5) ? 1 : -1) * random.uniform(12...18)
        } else {
            heading += random.uniform(-2.5...2.5)
        }
        heading = heading.truncatingRemainder(dividingBy: 360)
        if heading < 0 { heading += 360 }
        position = Geodesy.destination(from: position, bearing: heading, distance: speed)
        distance += speed
        let hdopTarget = canyonLeft > 0 ? 3.8 : 0.9
        hdop = Swift.max(0.6, Swift.min(9.9, hdop + (hdopTarget - hdop) * 0.2 + random.uniform(-0.05...0.05)))
    }

    private func sentences(for fix: Fix, multi: Bool, gps: Int, glonass: Int) -> [String] {
        typealias W = NMEASentenceWriter
        let talker = multi ? "GN" : "GP"
        let time = W.time(fix.timeOfDay ?? 0)
        let valid = fix.coordinate != nil
        var lat = ","
        var lon = ","
        if let c = fix.coordinate {
            lat = W.angle(c.latitude, degreeDigits: 2, positive: "N", negative: "S")
            lon = W.angle(c.longitude, degreeDigits: 3, positive: "E", negative: "W")
        }
        let knots = (fix.speed ?? 0) / Units.metresPerSecondPerKnot
        let track = fix.track.map { W.fixed($0, 2) } ?? ""
        var out: [String] = []
        out.append(
            W.sentence(
                "\(talker)RMC,\(time),\(valid ? "A" : "V"),\(lat),\(lon),\(valid ? W.fixed(knots, 3) : ""),\(valid ? track : ""),"
                    + "\(W.date(fix.date!)),,,\(valid ? (fix.quality == .dgps ? "D" : "A") : "N")"))
        out.append(
            W.sentence(
                valid
                    ? "\(talker)VTG,\(track),T,,M,\(W.fixed(knots, 3)),N,\(W.fixed((fix.speed ?? 0) * 3.6, 3)),K,A"
                    : "\(talker)VTG,,T,,M,,N,,K,N"))
        if valid {
            out.append(
                W.sentence(
                    "\(talker)GGA,\(time),\(lat),\(lon),\(fix.quality!.rawValue),\(W.pad(fix.satellitesUsed ?? 0, 2)),"
                        + "\(W.fixed(fix.hdop ?? 99.99, 2)),\(W.fixed(fix.altitudeMSL ?? 0, 1)),M,"
                        + "\(W.fixed(fix.geoidSeparation ?? 0, 1)),M,,"))
        } else {
            out.append(W.sentence("\(talker)GGA,\(time),,,,,0,00,99.99,,,,,,"))
        }
        let mode = fix.mode == .threeD ? 3 : fix.mode == .twoD ? 2 : 1
        let usedCount = fix.satellitesUsed ?? 0
        let gpsUsed = Swift.min(usedCount, gps)
        let dops =
            valid ? "\(W.fixed(fix.pdop!, 2)),\(W.fixed(fix.hdop!, 2)),\(W.fixed(fix.vdop!, 2))" : "99.99,99.99,99.99"
        let gpsIDs = (0..<12).map { $0 < gpsUsed ? W.pad(2 + 3 * $0, 2) : "" }.joined(separator: ",")
        out.append(W.sentence("\(talker)GSA,A,\(mode),\(gpsIDs),\(dops)"))
        if multi {
            let gloUsed = Swift.max(0, usedCount - gpsUsed)
            let gloIDs = (0..<12).map { $0 < gloUsed ? String(65 + 2 * $0) : "" }.joined(separator: ",")
            out.append(W.sentence("GNGSA,A,\(mode),\(gloIDs),\(dops)"))
        }
        // Sky views every third second, as many receivers send them.
        if second % 3 == 0 {
            out += skyView(talker: "GP", count: gps, firstID: 2, step: 3)
            if multi { out += skyView(talker: "GL", count: glonass, firstID: 65, step: 2) }
        }
        if valid {
            out.append(
                W.sentence(
                    "\(talker)GST,\(time),\(W.fixed(fix.hdop! * 2, 1)),,,,\(W.fixed(fix.latitudeError!, 1)),"
                        + "\(W.fixed(fix.longitudeError!, 1)),\(W.fixed(fix.altitudeError!, 1))"))
        }
        if (fix.timeOfDay ?? 0) % 60_000 == 0, let d = fix.date {
            out.append(W.sentence("\(talker)ZDA,\(time),\(W.pad(d.day, 2)),\(W.pad(d.month, 2)),\(d.year),00,00"))
        }
        return out
    }

    /// GSV sentences (four satellites each) for `count` satellites.
    private func skyView(talker: String, count: Int, firstID: Int, step: Int) -> [String] {
        let pages = Swift.max(1, (count + 3) / 4)
        return (0..<pages).map { page in
            var body = "\(talker)GSV,\(pages),\(page + 1),\(NMEASentenceWriter.pad(count, 2))"
            for k in (page * 4)..<Swift.min(count, page * 4 + 4) {
                let elevation = 10 + (k * 23 + second / 60) % 75
                let azimuth = (k * 47 + second / 30) % 360
                let snr = 22 + (k * 7) % 24
                body +=
                    ",\(NMEASentenceWriter.pad(firstID + step * k, 2)),\(NMEASentenceWriter.pad(elevation, 2)),"
                    + "\(NMEASentenceWriter.pad(azimuth, 3)),\(snr)"
            }
            return NMEASentenceWriter.sentence(body)
        }
    }
}
