import Foundation
import GPSCore
import TrackModel

extension StoreContract {
    /// The clauses about units of work: what a unit did is committed at once or not at all.
    public static let unitCases: [UnitCase] = [
        UnitCase(description: "a unit of work commits what it did at once, and sees its own writes meanwhile") {
            store in
            let day = CivilDate(year: 2026, month: 6, day: 14)!
            let id = try await store.write { tx -> Int64 in
                let points = (0..<10).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }
                try tx.makeWriter(device: try tx.device(named: "bike")).write(points, drops: [:])
                let id = try some(
                    try tx.addRecord(
                        milliseconds: t0, coordinate: Coordinate(latitude: 47, longitude: 8), altitude: nil,
                        notes: ["a"], fields: [], photos: [], account: nil), "a record")
                _ = try tx.addNote(to: id, text: "b", account: nil)
                try tx.setDaySummary(day, text: "Loop", account: nil)
                try expect(try tx.record(id, account: nil)?.notes.count == 2, "the unit sees its own note")
                try expect(
                    try tx.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all).map(\.pointCount) == [10],
                    "the unit sees its own ride")
                return id
            }
            try expect(
                try await store.read { try $0.record(id, account: nil) }?.notes.map(\.text) == ["a", "b"],
                "the record committed")
            try expect(
                try await store.read { try $0.daySummary(day, account: nil) } == "Loop", "the day's summary committed")
            let seen = try await store.read { tx in
                try tx.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .all).count
            }
            try expect(seen == 10, "a read unit sees the committed points: \(seen)")
        },
        UnitCase(description: "a unit of work that throws leaves nothing behind, photo files included") { store in
            struct Stop: Error {}
            do {
                _ = try await store.write { tx in
                    try tx.makeWriter(device: try tx.device(named: "bike")).write(
                        [KeptPoint(fix: makeFix(t0), ride: 1, segment: 1)], drops: [:])
                    _ = try tx.addRecord(
                        milliseconds: t0, coordinate: Coordinate(latitude: 47, longitude: 8), altitude: nil,
                        notes: ["gone"], fields: [], photos: [], account: nil)
                    throw Stop()
                }
                try expect(false, "the unit's error reaches its caller")
            } catch is Stop {}
            let devices = try await store.read { try $0.devices() }.map(\.name)
            try expect(devices.isEmpty, "no device: \(devices)")
            try expect(
                try await store.read { try $0.records(fromMilliseconds: .min, toMilliseconds: .max) }.isEmpty,
                "no record")
            try expect(
                try await store.read { try $0.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .all) }
                    .isEmpty, "no point")
            // A record with a photo, removed by a unit that then fails: the file stays with the record.
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID())").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try Data("a photo".utf8).write(to: URL(fileURLWithPath: dir + "/p.jpg"))
            let photo = try store.storePhotoFile(dir + "/p.jpg", takenMilliseconds: t0)
            let id = try some(
                try await store.write {
                    try $0.addRecord(
                        milliseconds: t0, coordinate: Coordinate(latitude: 47, longitude: 8), altitude: nil, notes: [],
                        fields: [], photos: [photo], account: nil)
                }, "a record")
            let file = store.mediaDirectory + "/" + photo.file
            do {
                _ = try await store.write { tx in
                    let removal = try tx.remove(records: [id], account: nil).removal
                    try expect(removal.photoFilesDeleted == 1, "the file is counted: \(removal)")
                    throw Stop()
                }
            } catch is Stop {}
            try expect(FileManager.default.fileExists(atPath: file), "the photo file stays after a rollback")
            try expect(
                try await store.read { try $0.record(id, account: nil) }?.photos.count == 1, "and so does its record")
            let removal = try await store.write { tx in try tx.remove(records: [id], account: nil).removal }
            try expect(removal.records == 1 && removal.photoFilesDeleted == 1, "removed: \(removal)")
            try expect(!FileManager.default.fileExists(atPath: file), "the file goes once the unit committed")
        },
        // A read unit cannot write: it is handed `StoreReading`, which has no write.
        UnitCase(
            description:
                "a phone's token and devices' live views read without a unit are what a unit reads; a revoked device's batch is refused"
        ) {
            store in
            try await store.write { tx in
                for name in ["ana", "ben"] { _ = try tx.addAccount(name: name, passwordHash: "v1$x") }
                _ = try tx.addShareCode(
                    owner: "ana", codeHash: "c", scopes: ["live"], historyHours: 0, expiresMilliseconds: t0 + 60_000)
                _ = try tx.redeemShareCode(codeHash: "c", viewer: "ben", now: t0, maxFailures: 3, window: 60_000)
                let phone = try tx.addDevice(named: "phone", account: "ana", tokenHash: "t")!
                try tx.makeWriter(device: phone).write(
                    (0..<3).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }, drops: [:])
                _ = try tx.addDevice(named: "old", account: "ana", tokenHash: "o")
                _ = try tx.revokeDevice(named: "old", account: "ana", at: t0)
            }
            let found = try await store.readPhoneDevice(tokenHash: "t")
            let inUnit = try await store.read { try $0.device(tokenHash: "t") }
            try expect(
                found?.account == "ana" && found?.name == "phone" && found?.device == inUnit?.device,
                "the token's device: \(found as Any)")
            try expect(try await store.readPhoneDevice(tokenHash: "o") == nil, "a revoked token finds nothing")
            try expect(try await store.readPhoneDevice(tokenHash: "x") == nil, "an unknown one neither")
            // A device revoked after its token was read: its batch stores nothing (a store that
            // keeps tokens finds out there) and its token, read again, finds nothing.
            let late = try await store.write { tx in try tx.addDevice(named: "late", account: "ana", tokenHash: "l")! }
            try expect(try await store.readPhoneDevice(tokenHash: "l")?.device == late, "the late device's token")
            _ = try await store.write { tx in try tx.revokeDevice(named: "late", account: "ana", at: t0) }
            do {
                _ = try await store.write { tx in
                    try tx.makeWriter(device: late).place(
                        [KeptPoint(fix: makeFix(t0 + 5000), ride: 0, segment: 0)], drops: [:],
                        rule: PointPlacement(segmentGapSeconds: 30, rideGapSeconds: 600))
                }
                throw Violation(description: "a revoked device's batch was stored")
            } catch is DeviceRevoked {}
            try expect(
                try await store.read { try $0.recentPoints(account: "ana", device: "late", limit: 1) }.allSatisfy {
                    $0.fixes.isEmpty
                },
                "the revoked device has no point")
            try expect(
                try await store.readPhoneDevice(tokenHash: "l") == nil, "the revoked token, read again, finds nothing")
            // Several devices in one read, each as its own view, in the order asked.
            let views = try await store.readLiveViews(
                of: [
                    OwnedDevice(owner: "ben", device: "phone"), OwnedDevice(owner: "ana", device: "phone"),
                    OwnedDevice(owner: "ana", device: "old"),
                ], viewers: ["ben", "dan"], limit: 2)
            try expect(views.count == 3, "a view for each device asked: \(views)")
            let none = views[0]
            try expect(none.grants.isEmpty && none.recent == nil, "no grant, nothing: \(none)")
            let view = views[1]
            try expect(
                view.grants.map(\.viewer) == ["ben"]
                    && view.recent?.fixes.map(\.unixMilliseconds) == [t0 + 1000, t0 + 2000],
                "ben's grant and the newest two points: \(view)")
            try expect(
                views[2].grants.map(\.viewer) == ["ben"] && views[2].recent == nil,
                "a device with no point: the grant alone: \(views[2])")
            try expect(try await store.readLiveViews(of: [], viewers: ["ben"], limit: 2).isEmpty, "no device, no view")
        },
    ]
}
