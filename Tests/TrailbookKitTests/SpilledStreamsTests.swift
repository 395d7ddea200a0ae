import GPSCore
import Testing

@testable import TrailbookKit

/// A file far out of time order, sorted through a temporary file: every field of every fix
/// comes back, in time order per stream and source, segments kept where they do not overlap.
@Suite struct SpilledStreamsTests {
    func fix(_ second: Int, lat: Double = 47) -> Fix {
        var f = Fix()
        f.date = CivilDate(year: 2026, month: 6, day: 14)
        f.timeOfDay = second * 1000
        f.mode = .threeD
        f.coordinate = Coordinate(latitude: lat, longitude: 8.5)
        return f
    }

    /// What `replay` hands back, as text: "source", "track", "segment", or the fix's second.
    func replayed(_ spilled: inout SpilledStreams) throws -> [String] {
        var out: [String] = []
        try spilled.replay { item in
            switch item {
            case .source(let name): out.append("source \(name ?? "-")")
            case .track: out.append("track")
            case .segment: out.append("segment")
            case .fix(let f): out.append(f.timeOfDay.map { "\($0 / 1000)" } ?? "untimed")
            }
        }
        return out
    }

    @Test func newestFirstComesBackOldestFirstThroughRunsOnDisk() throws {
        var spilled = SpilledStreams(path: "history.json", capacity: 7)
        var full = fix(50)
        full.quality = .dgps
        full.altitudeMSL = 412.5
        full.geoidSeparation = 47.25
        full.speed = 5.5
        full.track = 359.75
        (full.hdop, full.vdop, full.pdop) = (0.75, 1.25, 1.5)
        (full.satellitesUsed, full.satellitesInView) = (9, 14)
        (full.latitudeError, full.longitudeError, full.altitudeError) = (2.5, 3.5, 4.5)
        full.sensors = Sensors(heartRate: 140, cadence: 88, power: 210, temperature: -4, activity: .cycling)
        for s in (0..<100).reversed() { try spilled.take(.fix(s == 50 ? full : fix(s))) }
        var untimed = Fix()
        untimed.coordinate = Coordinate(latitude: 1, longitude: 2)
        try spilled.take(.fix(untimed))
        var back: [Fix] = []
        try spilled.replay { if case .fix(let f) = $0 { back.append(f) } }
        #expect(back.count == 101)
        #expect(back[0].timeOfDay == nil && back[0].coordinate?.longitude == 2, "without a time first")
        #expect(back.dropFirst().map { $0.timeOfDay! / 1000 } == Array(0..<100))
        #expect(back[51] == full, "every field, to the bit")
    }

    @Test func segmentsStayApartUnlessTheyOverlapAndEachSourceIsItsOwn() throws {
        var spilled = SpilledStreams(path: "log.gpx", capacity: 3)
        // Two segments written late one first, that do not overlap: kept apart, in time order.
        for s in [30, 31, 32] { try spilled.take(.fix(fix(s))) }
        try spilled.take(.segment)
        for s in [12, 10, 11] { try spilled.take(.fix(fix(s))) }
        // A second track whose segments overlap: one segment.
        try spilled.take(.track)
        for s in [5, 7] { try spilled.take(.fix(fix(s))) }
        try spilled.take(.segment)
        for s in [6, 4] { try spilled.take(.fix(fix(s))) }
        // A phone of its own, taking turns with the first track.
        try spilled.take(.source("7"))
        for s in [41, 40] { try spilled.take(.fix(fix(s, lat: 46))) }
        #expect(
            try replayed(&spilled) == [
                "source -", "track", "10", "11", "12", "segment", "30", "31", "32",
                "source -", "track", "4", "5", "6", "7",
                "source 7", "track", "40", "41",
            ])
    }

    @Test func whatFitsInMemoryNeedsNoFile() throws {
        var spilled = SpilledStreams(path: "small.csv", capacity: 100)
        for s in [3, 1, 2] { try spilled.take(.fix(fix(s))) }
        #expect(try replayed(&spilled) == ["source -", "track", "1", "2", "3"])
    }
}
