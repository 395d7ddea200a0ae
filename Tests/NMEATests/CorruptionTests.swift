import GPSCore
import NMEA
import RideSimulator
import Testing

/// Rides with 5% of lines damaged the way serial lines damage them: no fix may be invented,
/// and every epoch whose position sentence (RMC or GGA) survived must come out.
@Suite struct CorruptionTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func fivePercentCorruption(seed: UInt64) throws {
        let simulator = RideSimulator(
            .init(
                startDate: CivilDate(year: 2026, month: 6, day: 14)!, startTimeOfDay: 23 * 3_600_000 + 40 * 60_000,
                origin: Coordinate(latitude: -33.86, longitude: 151.2), duration: 2400, seed: seed))
        var corruptor = LineCorruptor(rate: 0.05, seed: seed)
        var clean: [UInt8] = []
        var damaged: [UInt8] = []
        var intactPositionEpochs: Set<Int64> = []
        var damagedLines = 0
        for epoch in simulator {
            var positionSurvived = false
            for line in epoch.sentences {
                clean += Array(line.utf8)
                let (bytes, damage) = corruptor.process(line)
                damaged += bytes
                if damage != nil { damagedLines += 1 }
                let isPosition = line.dropFirst(3).hasPrefix("RMC") || line.dropFirst(3).hasPrefix("GGA")
                if isPosition && (damage == nil || damage!.keepsSentence) { positionSurvived = true }
            }
            if positionSurvived, let t = epoch.fix.unixMilliseconds { intactPositionEpochs.insert(t) }
        }
        #expect(damagedLines > 500)

        let (reference, _) = decode(clean)
        let (result, stats) = decode(damaged, chunkSize: 4093)
        #expect(stats.badChecksum + stats.missingChecksum + stats.malformed > 0)
        let truth = Dictionary(uniqueKeysWithValues: reference.map { ($0.unixMilliseconds!, $0) })
        var seen: Set<Int64> = []
        for fix in result {
            let t = try #require(fix.unixMilliseconds, "every fix is dated")
            let expected = try #require(truth[t], "fix at \(t) does not exist in the clean ride")
            seen.insert(t)
            #expect(fix.coordinate == nil || fix.coordinate == expected.coordinate, "position invented at \(t)")
            if fix.altitudeMSL != nil { #expect(fix.altitudeMSL == expected.altitudeMSL) }
            if fix.speed != nil { #expect(fix.speed == expected.speed) }
            if fix.track != nil { #expect(fix.track == expected.track) }
        }
        let missing = intactPositionEpochs.subtracting(seen)
        #expect(missing.isEmpty, "\(missing.count) epochs with an intact position sentence are missing")
    }
}
