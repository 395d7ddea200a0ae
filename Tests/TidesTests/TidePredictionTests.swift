import Foundation
import Testing
import Tides

/// Predictions from Debian's xtide-data against NOAA's published tide tables.
@Suite struct TidePredictionTests {
    /// NOAA CO-OPS annual predictions, high and low waters, as published (heights in feet above
    /// MLLW): Friday Harbor, WA (9449880, a reference station), 1–3 January 2025, times in
    /// Pacific Standard Time; Swain Channel, NJ (8535805, subordinate to Atlantic City 8534720:
    /// high +55 min ×1.09, low +40 min ×1.06), 1–2 January 2020, times in GMT.
    static let fridayHarbor = """
        2025/01/01 07:47 8.89 H
        2025/01/01 12:33 7.46 L
        2025/01/01 15:00 7.58 H
        2025/01/01 23:43 -2.01 L
        2025/01/02 08:16 8.83 H
        2025/01/02 13:22 6.97 L
        2025/01/02 16:02 7.13 H
        2025/01/03 00:23 -1.58 L
        2025/01/03 08:44 8.75 H
        2025/01/03 14:23 6.21 L
        2025/01/03 17:17 6.46 H
        """
    static let swainChannel = """
        2020/01/01 05:20 3.35 H
        2020/01/01 11:02 0.71 L
        2020/01/01 17:29 4.01 H
        2020/01/01 23:46 0.36 L
        2020/01/02 06:12 3.35 H
        2020/01/02 11:57 0.86 L
        """

    struct Published {
        let time: Date
        let feet: Double
        let high: Bool
    }

    static func table(_ text: String, zone: String) -> [Published] {
        let format = DateFormatter()
        format.dateFormat = "yyyy/MM/dd HH:mm"
        format.timeZone = TimeZone(identifier: zone)
        return text.split(separator: "\n").map { line in
            let cells = line.split(separator: " ")
            return Published(
                time: format.date(from: "\(cells[0]) \(cells[1])")!, feet: Double(cells[2])!, high: cells[3] == "H")
        }
    }

    /// Each published turn has a predicted one of the same kind within `feet`, and within
    /// `minutes` when it is a clear turn (at least 1 ft from the turns beside it), within
    /// `flatMinutes` when it is a flat one (its time is ill-defined: a small difference in the
    /// constants moves it a lot).
    func compare(_ station: TideStation, _ published: [Published], minutes: Double, flatMinutes: Double, feet: Double) {
        let span = DateInterval(
            start: published.first!.time.addingTimeInterval(-3600), end: published.last!.time.addingTimeInterval(3600))
        let predicted = TidePrediction.extremes(station, in: span)
        #expect(predicted.count == published.count, "\(predicted)")
        var worst = (clear: 0.0, flat: 0.0, feet: 0.0)
        for (i, p) in published.enumerated() {
            let nearest = predicted.min {
                abs($0.time.timeIntervalSince(p.time)) < abs($1.time.timeIntervalSince(p.time))
            }
            guard let nearest else { continue }
            #expect(nearest.high == p.high)
            let neighbours = [i > 0 ? published[i - 1] : nil, i + 1 < published.count ? published[i + 1] : nil]
            let flat = neighbours.compactMap { $0 }.contains { abs($0.feet - p.feet) < 1 }
            let off = abs(nearest.time.timeIntervalSince(p.time)) / 60
            if flat { worst.flat = max(worst.flat, off) } else { worst.clear = max(worst.clear, off) }
            worst.feet = max(worst.feet, abs(nearest.height / 0.3048 - p.feet))
        }
        print(
            "\(station.name) against NOAA: clear turns within \(worst.clear) min, flat ones \(worst.flat) min, heights \(worst.feet) ft"
        )
        #expect(worst.clear <= minutes && worst.flat <= flatMinutes && worst.feet <= feet, "\(worst)")
    }

    @Test func aReferenceStationMatchesNOAAsTable() throws {
        let station = try TideDatabase.station("9449880")
        #expect(station.name.hasPrefix("Friday Harbor") && station.offsets == nil && station.units == "feet")
        #expect(station.datum == "Mean Lower Low Water")
        // NOAA publishes to the minute and 0.01 ft, from constants newer than xtide-data's (2019).
        compare(
            station, Self.table(Self.fridayHarbor, zone: "America/Los_Angeles"), minutes: 2, flatMinutes: 10, feet: 0.05
        )
    }

    @Test func aSubordinateStationUsesItsReferenceAndOffsets() throws {
        let station = try TideDatabase.station("Swain Channel")
        #expect(station.offsets?.highTime == 55 * 60 && abs((station.offsets?.lowMultiply ?? 0) - 1.06) < 1e-6)
        compare(station, Self.table(Self.swainChannel, zone: "UTC"), minutes: 2, flatMinutes: 2, feet: 0.05)
    }

    @Test func theStateFollowsTheTurns() throws {
        let station = try TideDatabase.station("9449880")
        let published = Self.table(Self.fridayHarbor, zone: "America/Los_Angeles")
        // At a high water: high; two hours after it, falling; two hours before the next high: rising.
        let high = published[0].time
        #expect(TidePrediction.moment(station, at: high)?.state == .high)
        #expect(TidePrediction.moment(station, at: high.addingTimeInterval(7200))?.state == .falling)
        #expect(TidePrediction.moment(station, at: published[3].time)?.state == .low)
        #expect(TidePrediction.moment(station, at: published[4].time.addingTimeInterval(-7200))?.state == .rising)
        let level = try #require(TidePrediction.moment(station, at: high)?.height)
        #expect(abs(level / 0.3048 - 8.89) < 0.05)
    }

    @Test func badNamesAreOneSentence() throws {
        #expect(throws: TideError.noStation("Atlantis Harbor", path: TideDatabase.defaultPath)) {
            try TideDatabase.station("Atlantis Harbor")
        }
        do {
            _ = try TideDatabase.station("San Francisco")
            Issue.record("San Francisco names many stations")
        } catch let error as TideError {
            #expect("\(error)".contains("names") && "\(error)".contains("give the whole name or the station id"))
        }
        #expect(throws: TideError.noDatabase("/nonexistent.tcd")) {
            try TideDatabase.station("x", path: "/nonexistent.tcd")
        }
        let near = try TideDatabase.stations().filter {
            abs($0.latitude - 48.55) < 0.1 && abs($0.longitude + 123.01) < 0.1
        }
        #expect(near.contains { $0.id == "9449880" && !$0.subordinate })
    }
}
