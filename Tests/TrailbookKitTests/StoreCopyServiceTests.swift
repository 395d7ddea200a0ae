import Foundation
import GPSCore
import Pipeline
import Testing
import TrackModel
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore

/// The copy of one account made while its phone posts (the web app's archive).
@Suite struct StoreCopyServiceTests {
    /// A kept point of the account's phone at `seconds` after 2026-06-14T06:00:00Z.
    func point(_ seconds: Int64) -> KeptPoint {
        var fix = Fix()
        fix.coordinate = Coordinate(latitude: 47.37 + Double(seconds) * 1e-5, longitude: 8.54)
        fix.mode = .twoD
        UTCTimestamp.set(1_781_416_800_000 + seconds * 1000, on: &fix)
        return KeptPoint(fix: fix, ride: 1, segment: 1)
    }

    @Test func anAccountsCopyMadeWhileItsPhonePostsHoldsWhatWasThere() throws {
        let dir = try Samples.temporaryDirectory()
        let source = try TrackStore(path: dir + "/source.sqlite")
        #expect(try source.writeNow { try $0.addAccount(name: "ana", passwordHash: "x") })
        let phone = try #require(try source.writeNow { try $0.device(named: "phone", account: "ana") })
        let rule = PointPlacement(segmentGapSeconds: 300, rideGapSeconds: 1800)
        try source.writeNow { try $0.makeWriter(device: phone).place((1000..<1100).map(point), drops: [:], rule: rule) }
        let account = try #require(try source.copyAccountID("ana"))

        // The phone posts once every row has been copied, before the counts are compared: a
        // point earlier than all of them, in a ride of its own.
        var posted = false
        let copy = StoreCopyService(
            source: source, destination: try TrackStore(path: dir + "/archive.sqlite"), account: account)
        let total = try copy.totalRows()
        let report = try copy.copy { done in
            guard done >= total, !posted else { return }
            posted = true
            _ = try? source.writeNow { try $0.makeWriter(device: phone).place([point(0)], drops: [:], rule: rule) }
        }
        #expect(posted)
        let positions = try #require(report.tables.first { $0.table == "position" })
        #expect(positions.rows == 100, "the archive holds the points that were there")
        let stored = try source.readNow {
            try $0.points(
                fromMilliseconds: 0, toMilliseconds: 4_000_000_000_000, devices: DeviceFilter(account: "ana")
            )
        }.count
        #expect(stored == 101, "the phone's point went to the source: \(stored)")

        // A whole store's copy still refuses a source that changed under it.
        let whole = StoreCopyService(source: source, destination: try TrackStore(path: dir + "/whole.sqlite"))
        let wholeTotal = try whole.totalRows()
        var again = false
        #expect(throws: StoreCopyError.self) {
            try whole.copy { done in
                guard done >= wholeTotal, !again else { return }
                again = true
                _ = try? source.writeNow {
                    try $0.makeWriter(device: phone).place([point(-10)], drops: [:], rule: rule)
                }
            }
        }
    }
}
