import Foundation
import GPSCore
import Testing
import TrackModel
import TrailbookTestSupport

@testable import StorePostgres

/// A phone's token is read once per process, then kept. A device revoked through another process
/// (two stores on one database here) may still be given for its token, but its next batch is
/// refused and stores nothing, and then its token finds nothing in this process either.
@Suite struct PhoneDeviceCacheTests {
    @Test func aTokenRevokedByAnotherProcessEndsAtItsNextBatch() async throws {
        let url = try PostgresCluster.shared().newDatabase()
        let media = try Samples.temporaryDirectory() + "/media"
        let here = try PostgresStore(url: url, mediaDirectory: media)
        defer { here.close() }
        let there = try PostgresStore(url: url, mediaDirectory: media)
        defer { there.close() }
        #expect(try here.writeNow { try $0.addAccount(name: "ana", passwordHash: "x") })
        let phone = try #require(try here.writeNow { try $0.addDevice(named: "phone", account: "ana", tokenHash: "t") })
        let t0: Int64 = 1_781_419_200_000
        let rule = PointPlacement(segmentGapSeconds: 60, rideGapSeconds: 600)
        func point(_ t: Int64) -> [KeptPoint] {
            var fix = Fix()
            UTCTimestamp.set(t, on: &fix)
            fix.coordinate = Coordinate(latitude: 47.37, longitude: 8.54)
            fix.mode = .threeD
            return [KeptPoint(fix: fix, ride: 0, segment: 0)]
        }
        #expect(try await here.readPhoneDevice(tokenHash: "t")?.device == phone)
        #expect(try here.writeNow { try $0.makeWriter(device: phone).place(point(t0), drops: [:], rule: rule) } == 1)

        #expect(try there.writeNow { try $0.revokeDevice(named: "phone", account: "ana", at: t0 + 500) })
        #expect(try await there.readPhoneDevice(tokenHash: "t") == nil, "the revoking process knows at once")
        // This process kept the token: it is still given, and the batch finds the revocation.
        #expect(try await here.readPhoneDevice(tokenHash: "t")?.device == phone)
        #expect(throws: DeviceRevoked.self) {
            try here.writeNow { try $0.makeWriter(device: phone).place(point(t0 + 1000), drops: [:], rule: rule) }
        }
        #expect(
            !(try here.writeNow {
                try $0.addDeviceMessage(phone, type: "lwt", receivedMilliseconds: t0 + 1000, body: "{}")
            }))
        #expect(try await here.readPhoneDevice(tokenHash: "t") == nil, "forgotten once refused")
        let stored = try here.readNow { try $0.recentPoints(account: "ana", device: "phone", limit: 5) }.flatMap(
            \.fixes)
        #expect(stored.map(\.unixMilliseconds) == [t0], "only the point before the revocation")
        #expect(try here.readNow { try $0.deviceMessages(account: "ana") }.isEmpty)
        // An empty batch (a phone's message with no position) is refused the same way.
        #expect(throws: DeviceRevoked.self) {
            try here.writeNow { try $0.makeWriter(device: phone).place([], drops: [:], rule: rule) }
        }
    }
}
