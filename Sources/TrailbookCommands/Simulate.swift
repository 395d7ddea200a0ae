import ArgumentParser
import GPSCore
import RideSimulator
import TrailbookKit

/// `trailbook simulate`: writes a realistic simulated ride as NMEA, for demos, tests and benchmarks.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a simulated bicycle ride as NMEA 0183, as a USB receiver would send it.",
        discussion: """
            The ride is the same for the same --seed: speed that follows the hills, stops at \
            lights and a long café stop now and then, HDOP spikes with 2D fixes, fix loss in \
            tunnels, GP and GN talkers, GSV sky views. --corrupt damages that share of lines \
            the way a serial line does (flipped bits, lost bytes, cut lines, lost line ends, \
            NULs, binary bursts), for testing decoders.
            """
    )

    @Option(help: "Length of the ride in seconds (one epoch per second).")
    var duration = 1800

    @Option(help: "Seed of the random choices; the same seed gives the same ride.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("UTC date and time of the first epoch.", valueName: "YYYY-MM-DDTHH:MM:SS"))
    var start = "2026-06-14T06:30:00"

    @Option(help: "Latitude of the start, decimal degrees (negative south).")
    var lat = 47.3769

    @Option(help: "Longitude of the start, decimal degrees (negative west).")
    var lon = 8.5417

    @Option(help: "Percentage of lines to damage, 0-100.")
    var corrupt = 0.0

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    @Option(
        help: """
            Instead of a ride, write N fortnights of a person's life as CSV (time in Unix ms,lat,lon,speed,accuracy): \
            home, work, a canteen, runs, a weekend by car abroad, a weekend by plane (the test's fortnight, \
            repeated from 2026-06-01), for benchmarks of visit detection.
            """)
    var fortnights: Int?

    @Option(help: "With --fortnights: seconds between fixes, everywhere (1: a year of 26 fortnights is 31 M fixes).")
    var every = 1

    func validate() throws {
        guard duration > 0 && duration <= 366 * 86_400 else {
            throw ValidationError("--duration must be between 1 and 31622400 seconds.")
        }
        if let fortnights, !(1...260).contains(fortnights) { throw ValidationError("--fortnights is from 1 to 260.") }
        guard every >= 1 && every <= 600 else { throw ValidationError("--every is from 1 to 600 seconds.") }
        guard (0...100).contains(corrupt) else { throw ValidationError("--corrupt is a percentage from 0 to 100.") }
        guard abs(lat) <= 90, abs(lon) <= 180 else {
            throw ValidationError("--lat must be within ±90 and --lon within ±180 degrees.")
        }
        guard parsedStart() != nil else {
            throw ValidationError("--start takes a UTC time as YYYY-MM-DDTHH:MM:SS, for example 2026-06-14T06:30:00.")
        }
    }

    private func parsedStart() -> (CivilDate, Int)? {
        let parts = start.split(separator: "T")
        guard parts.count == 2, let date = CivilDate(iso: String(parts[0])) else { return nil }
        let hms = parts[1].split(separator: ":").compactMap { Int($0) }
        guard hms.count == 3, hms[0] < 24, hms[1] < 60, hms[2] < 60 else { return nil }
        return (date, ((hms[0] * 60 + hms[1]) * 60 + hms[2]) * 1000)
    }

    func run() throws {
        if let fortnights { return try writeFortnights(fortnights) }
        let (date, timeOfDay) = parsedStart()!
        let simulator = RideSimulator(
            .init(
                startDate: date, startTimeOfDay: timeOfDay, origin: Coordinate(latitude: lat, longitude: lon),
                duration: duration, seed: seed))
        var corruptor = LineCorruptor(rate: corrupt / 100, seed: seed)
        let sink = try OutputFile(path: output, suffix: "nmea")
        var out = OutputBuffer(fd: sink.fd)
        for epoch in simulator {
            for line in epoch.sentences {
                if corrupt > 0 {
                    corruptor.process(line).bytes.withUnsafeBytes { out.append(bytes: $0) }
                } else {
                    out.append(line)
                }
            }
            try out.flushIfFull()
        }
        try out.flush()
        try sink.commit()
    }
}

extension Simulate {
    /// The fortnight of the visit tests, `count` times one after the other, as CSV.
    func writeFortnights(_ count: Int) throws {
        let plan = Fortnight.simulator(stayInterval: every, moveInterval: every, seed: seed)
        let sink = try OutputFile(path: output, suffix: "csv")
        var out = OutputBuffer(fd: sink.fd)
        out.append("time,lat,lon,speed,accuracy\n")
        for k in 0..<count {
            var sim = plan
            sim.startMilliseconds = Fortnight.start + Int64(k) * 14 * 86_400_000
            sim.seed = seed &+ UInt64(k)
            for fix in sim {
                let c = fix.coordinate!
                // Unix milliseconds: the CSV reader takes them, and they cost no formatting.
                out.append(int: Int(fix.unixMilliseconds!))
                out.append(",")
                out.append(c.latitude, decimals: 7)
                out.append(",")
                out.append(c.longitude, decimals: 7)
                out.append(",")
                out.append(fix.speed ?? 0, decimals: 2)
                out.append(",")
                out.append(fix.horizontalError ?? 0, decimals: 1)
                out.append("\n")
                try out.flushIfFull()
            }
        }
        try out.flush()
        try sink.commit()
    }
}
