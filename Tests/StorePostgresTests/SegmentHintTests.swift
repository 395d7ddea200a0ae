import Foundation
import GPSCore
import Testing
import TrackModel
import TrailbookTestSupport

@testable import StorePostgres
@testable import TrackStore

/// A phone's one point after its device's newest segment is placed by one statement, from the
/// segment this process left: the statement checks under the lock that the segments are still
/// that one. Placed last in a unit that has sent nothing yet, that statement is the unit's
/// transaction, and writes nothing when the check fails; placed as any batch it is the unit's
/// insert. Another process writing between
/// (widening the segment, or starting the next one the point joins it to), a resend, a gap and a
/// late point all take the usual path, and the rides come out as SQLite's for the same points.
@Suite struct SegmentHintTests {
    @Test(arguments: [false, true])
    func aPhonesNextPointIsPlacedByOneStatementAndTheRidesAreSQLites(last: Bool) async throws {
        let url = try PostgresCluster.shared().newDatabase()
        let directory = try Samples.temporaryDirectory()
        let here = try PostgresStore(url: url, mediaDirectory: directory + "/media")
        defer { here.close() }
        let there = try PostgresStore(url: url, mediaDirectory: directory + "/media")
        defer { there.close() }
        let sqlite = try TrackStore(path: directory + "/s.sqlite")
        #expect(try here.writeNow { try $0.addAccount(name: "ana", passwordHash: "x") })
        let phone = try #require(try here.writeNow { try $0.addDevice(named: "phone", account: "ana", tokenHash: "t") })
        let local = try sqlite.writeNow { try $0.device(named: "phone") }
        let t0: Int64 = 1_781_419_200_000
        let rule = PointPlacement(segmentGapSeconds: 60, rideGapSeconds: 600)
        func point(_ t: Int64) -> [KeptPoint] {
            var fix = Fix()
            UTCTimestamp.set(t, on: &fix)
            fix.coordinate = Coordinate(latitude: 47.37, longitude: 8.54 + Double(t - t0) * 1e-7)
            fix.mode = .threeD
            return [KeptPoint(fix: fix, ride: 0, segment: 0)]
        }
        // (which process, the point's offset from t0 in ms)
        let batches: [(there: Bool, dt: Int64)] = [
            (false, 0), (false, 1000), (false, 2000),
            (true, 3000),  // another process: this one's segment is not as it left it
            (false, 4000), (false, 5000),
            (false, 5000),  // a resend
            (true, 66_000),  // the other process starts the next segment (63 s after)...
            (false, 30_000),  // ...and this point joins the two: one is after the one it knew
            (false, 31_000),
            (true, 110_000),  // the other process widens the segment...
            (true, 172_000),  // ...and starts the next (62 s after)
            (false, 115_000),  // within a minute of both: the two segments become one
            (false, 300_000),  // past the segment gap: a new segment, then on in it
            (false, 301_000), (false, 302_000),
            (false, 1500),  // late, inside the first segment
            (false, 303_000),
        ]
        var placedByInsert = 0
        var placedAlone = 0
        var added: [Int] = []
        for (i, b) in batches.enumerated() {
            let state = DeviceStateUpdate(milliseconds: t0 + b.dt, battery: Double(90 - i), accuracy: 5)
            let store = b.there ? there : here
            func place(_ unit: any StoreWriting) throws -> Int {
                let writer = try #require(unit.makeWriter(device: phone) as? PostgresWriter)
                let stored =
                    last
                    ? try writer.placeLast(point(t0 + b.dt), drops: [:], rule: rule, state: state)
                    : try writer.place(point(t0 + b.dt), drops: [:], rule: rule, state: state)
                placedByInsert += writer.placedByInsert
                placedAlone += writer.placedAlone
                return stored
            }
            added.append(try store.writeNow(place))
            _ = try sqlite.writeNow {
                try $0.makeWriter(device: local).place(point(t0 + b.dt), drops: [:], rule: rule, state: state)
            }
        }
        #expect(added == [1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], "\(added)")
        // 1000, 2000, 5000, 301000 and 302000 by the one statement. Not 4000, 30000 nor 115000
        // (the other process moved the segment, or made one after it), the resend, the gaps, the
        // late point, nor 303000 (after the late point this process no longer knows the newest
        // segment: the late point had one after it).
        #expect(placedByInsert == 5, "placed by the one statement: \(placedByInsert)")
        // Last in its unit, that statement was the unit's transaction (no BEGIN, no COMMIT).
        #expect(placedAlone == (last ? 5 : 0), "placed alone: \(placedAlone)")
        func shape(_ rides: [StoredRide]) -> [[Int64]] {
            rides.map { [$0.startMilliseconds, $0.endMilliseconds, Int64($0.pointCount), Int64($0.segmentCount)] }
        }
        let pgRides = try here.readNow {
            try $0.rides(
                fromMilliseconds: .min, toMilliseconds: .max, devices: .account("ana", device: "phone"))
        }
        let sqliteRides = try sqlite.readNow {
            try $0.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .named("phone"))
        }
        #expect(shape(pgRides) == shape(sqliteRides), "PostgreSQL \(shape(pgRides)), SQLite \(shape(sqliteRides))")
        #expect(shape(pgRides) == [[t0, t0 + 303_000, 17, 2]], "\(shape(pgRides))")
        let latest = try here.readNow { try $0.latestPoint(devices: .account("ana", device: "phone")) }
        #expect(latest?.unixMilliseconds == t0 + 303_000, "the newest point is the latest position")
        let recent = try #require(
            try here.readNow { try $0.recentPoints(account: "ana", device: "phone", limit: 1) }.first)
        #expect(
            recent.battery == Double(90 - (batches.count - 1)), "the last batch's battery: \(recent.battery as Any)")
    }
}
