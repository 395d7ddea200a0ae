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
            try expect(try store.record(id, account: nil)?.notes.map(\.text) == ["a", "b"], "the record committed")
            try expect(try store.daySummary(day, account: nil) == "Loop", "the day's summary committed")
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
            let devices = try store.devices().map(\.name)
            try expect(devices.isEmpty, "no device: \(devices)")
            try expect(try store.records(fromMilliseconds: .min, toMilliseconds: .max).isEmpty, "no record")
            try expect(
                try store.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .all).isEmpty, "no point")
            // A record with a photo, removed by a unit that then fails: the file stays with the record.
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID())").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try Data("a photo".utf8).write(to: URL(fileURLWithPath: dir + "/p.jpg"))
            let photo = try store.storePhotoFile(dir + "/p.jpg", takenMilliseconds: t0)
            let id = try some(
                try store.addRecord(
                    milliseconds: t0, coordinate: Coordinate(latitude: 47, longitude: 8), altitude: nil, notes: [],
                    fields: [], photos: [photo], account: nil), "a record")
            let file = store.mediaDirectory + "/" + photo.file
            do {
                _ = try await store.write { tx in
                    let removal = try tx.remove(records: [id], account: nil).removal
                    try expect(removal.photoFilesDeleted == 1, "the file is counted: \(removal)")
                    throw Stop()
                }
            } catch is Stop {}
            try expect(FileManager.default.fileExists(atPath: file), "the photo file stays after a rollback")
            try expect(try store.record(id, account: nil)?.photos.count == 1, "and so does its record")
            let removal = try await store.write { tx in try tx.remove(records: [id], account: nil).removal }
            try expect(removal.records == 1 && removal.photoFilesDeleted == 1, "removed: \(removal)")
            try expect(!FileManager.default.fileExists(atPath: file), "the file goes once the unit committed")
        },
        UnitCase(description: "a read unit cannot write; a synchronous unit commits on return") { store in
            try await refusesToWrite(store, "a read unit") { try await store.read($0) }
            let device = try store.writeNow { tx in try tx.device(named: "bike") }
            try expect(try store.devices().map(\.id) == [device], "the synchronous unit committed")
        },
        UnitCase(description: "a single read sees what is committed and cannot write") { store in
            _ = try store.writeNow { tx in try tx.addAccount(name: "ana", passwordHash: "v1$x") }
            let names = try await store.readSingle { tx in try tx.accounts().map(\.name) }
            try expect(names.contains("ana"), "the account committed before: \(names)")
            try await refusesToWrite(store, "a single read") { try await store.readSingle($0) }
        },
    ]

    /// Checks that `read` (a read unit of `store`) fails to add a device and leaves none.
    static func refusesToWrite(
        _ store: any TrackStoring, _ what: String,
        _ read: (@escaping @Sendable (any StoreUnit) throws -> DeviceID) async throws -> DeviceID
    ) async throws {
        do {
            _ = try await read { tx in try tx.device(named: "bike") }
            try expect(false, "\(what) wrote a device")
        } catch is Violation {
            throw Violation(description: "\(what) wrote a device")
        } catch {}
        try expect(try store.devices().isEmpty, "no device after the refused write")
    }
}
