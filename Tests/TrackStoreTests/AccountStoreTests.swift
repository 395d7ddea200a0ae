import Foundation
import GPSCore
import Testing
import TrailbookTestSupport

@testable import TrackStore

/// Removing an account removes what its devices recorded, and nothing of anyone else's.
@Suite struct AccountStoreTests {
    @Test func removingAnAccountTakesItsPointsRidesAndRecords() throws {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite")
        #expect(try store.writeNow { try $0.addAccount(name: "ana", passwordHash: "v1$x") })
        #expect(try store.writeNow { try $0.addAccount(name: "ana", passwordHash: "v1$y") } == false)
        let phone = try #require(
            try store.writeNow { try $0.addDevice(named: "phone", account: "ana", tokenHash: "h1") })
        let mine = try store.writeNow { try $0.device(named: "bike") }
        var fix = Fix()
        fix.coordinate = Coordinate(latitude: 47, longitude: 8)
        fix.mode = .threeD
        for (device, count) in [(phone, 5), (mine, 3)] {
            let points = (0..<count).map { i -> KeptPoint in
                UTCTimestamp.set(1_781_418_600_000 + Int64(i) * 1000, on: &fix)
                return KeptPoint(fix: fix, ride: 1, segment: 1)
            }
            try store.writeNow { try $0.makeWriter(device: device).write(points) }
        }
        func count(_ sql: String) throws -> Int {
            try store.databasePool.read { db in try Int.fetchOne(db, sql: sql)! }
        }
        #expect(try count("SELECT count(*) FROM point") == 8)
        #expect(try count("SELECT count(*) FROM ride") == 2)
        #expect(try store.writeNow { try $0.removeAccount("ana") })
        #expect(try count("SELECT count(*) FROM point") == 3, "only the local account's points stay")
        #expect(try count("SELECT count(*) FROM ride") == 1)
        #expect(try count("SELECT count(*) FROM device WHERE name = 'phone'") == 0)
        #expect(try store.readNow { try $0.device(tokenHash: "h1") } == nil)
        #expect(try store.writeNow { try $0.removeAccount("ana") } == false)
    }
}
