import Foundation
import GPSCore
import Testing
import TrackModel
import TrailbookTestSupport

@testable import StorePostgres

/// The statements a phone's point runs are prepared once per connection. A parameter that is NULL
/// when its statement is prepared gets the type its context gives it; a value given later must
/// still be read as the value it is. One connection, so every use after the first reuses the
/// statement, and more uses than PostgreSQL's five custom plans, so its generic plan runs too.
@Suite struct PreparedStatementTests {
    @Test func aStatementPreparedWithNullsTakesValuesAfter() throws {
        let store = try PostgresStore(
            url: try PostgresCluster.shared().newDatabase(),
            mediaDirectory: try Samples.temporaryDirectory() + "/media", maximumConnections: 1)
        defer { store.close() }
        #expect(try store.writeNow { try $0.addAccount(name: "ana", passwordHash: "x") })
        let phone = try #require(
            try store.writeNow { try $0.addDevice(named: "phone", account: "ana", tokenHash: "t") })
        let t0: Int64 = 1_781_419_200_000
        let rule = PointPlacement(segmentGapSeconds: 60, rideGapSeconds: 600)
        for i in 0..<12 {
            let t = t0 + Int64(i) * 1000
            var fix = Fix()
            UTCTimestamp.set(t, on: &fix)
            fix.coordinate = Coordinate(latitude: 47.37 + Double(i) * 1e-4, longitude: 8.54)
            fix.mode = .threeD
            #expect(
                try store.writeNow {
                    try $0.makeWriter(device: phone).place(
                        [KeptPoint(fix: fix, ride: 0, segment: 0)], drops: [:], rule: rule)
                } == 1)
            // The first uses without a battery or an accuracy, then with them.
            let battery: Double? = i < 6 ? nil : 50 + Double(i)
            let accuracy: Double? = i < 6 ? nil : 2.5 * Double(i)
            try store.writeNow { try $0.setDeviceState(phone, atMilliseconds: t, battery: battery, accuracy: accuracy) }
            let recent = try #require(try store.readNow { try $0.recentPoints(account: "ana", limit: 2) }.first)
            #expect(recent.fixes.last?.unixMilliseconds == t, "point \(i)")
            #expect(recent.battery == battery && recent.accuracy == accuracy, "point \(i): \(recent)")
            #expect(try store.readNow { try $0.device(tokenHash: "t") }?.device == phone)
            #expect(try store.readNow { try $0.device(tokenHash: "none") } == nil)
        }
        let rides = try store.readNow {
            try $0.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: DeviceFilter(account: "ana"))
        }
        #expect(rides.count == 1 && rides.first?.pointCount == 12, "\(rides)")
        // The grants of a viewer and of an owner, before and after there is one.
        #expect(
            try store.readNow { try $0.grants(viewer: "ben") }.isEmpty
                && store.readNow { try $0.grants(owner: "ana") }.isEmpty)
        #expect(try store.writeNow { try $0.addAccount(name: "ben", passwordHash: "x") })
        _ = try store.writeNow {
            try $0.addShareCode(
                owner: "ana", codeHash: "c", scopes: ["live"], historyHours: 0, expiresMilliseconds: .max)
        }
        _ = try store.writeNow {
            try $0.redeemShareCode(codeHash: "c", viewer: "ben", now: t0, maxFailures: 3, window: 60_000)
        }
        #expect(try store.readNow { try $0.grants(viewer: "ben") }.map(\.owner) == ["ana"])
        #expect(try store.readNow { try $0.grants(owner: "ana") }.map(\.viewer) == ["ben"])
    }
}
