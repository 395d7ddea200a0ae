import Foundation
import GPSCore
import Testing
import TrackModel
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore

/// The diary use cases on a real store, without the command line.
@Suite struct DiaryServiceTests {
    let zone = TimeZone(identifier: "Europe/Zurich")!
    /// 2026-06-14T06:40:00Z, inside the sample ride.
    let inRide: Int64 = 1_781_419_200_000

    /// A store holding Samples/ride.nmea, and its folder.
    func storeWithRide() async throws -> (TrackStore, String) {
        let dir = try Samples.temporaryDirectory()
        let store = try TrackStore(path: dir + "/s.sqlite")
        var importer = try await ImportService(store: store, device: "bike", options: .init(configuration: .ride))
        #expect(try importer.importFile(Samples.path("ride.nmea")).report.stored == 1762)
        return (store, dir)
    }

    @Test func markPlacesARecordByEachRule() async throws {
        let (store, _) = try await storeWithRide()
        let diary = DiaryService(store: store, zone: zone)
        let place = Coordinate(latitude: 47.5, longitude: 8.5)
        let given = try await diary.mark(
            .given(place, altitude: 410, time: inRide), note: "Bridge",
            fields: [try DiaryService.field("weight_kg=12.5")])
        #expect(given.coordinate == place && given.altitude == 410 && given.manual)
        #expect(given.notes.map(\.text) == ["Bridge"] && given.fields.first?.value == .number(12.5))

        let atFix = try await diary.mark(.storedFix(time: inRide + 300, within: 60))
        let fix = try #require(
            try store.readNow { try $0.nearestPoint(to: inRide + 300, within: 60_000, devices: .all) })
        #expect(atFix.coordinate == fix.coordinate && atFix.milliseconds == inRide + 300)

        // The latest fix is the ride's last; "now" 10 s after it is recent, an hour after is not.
        let last = try #require(try store.readNow { try $0.latestPoint(devices: .all) }?.unixMilliseconds)
        #expect(try await diary.mark(.latest(maxAge: 120), now: last + 10_000).milliseconds == last)
        await #expect(throws: DiaryError.noRecentFix(seconds: 120)) {
            try await diary.mark(.latest(maxAge: 120), now: last + 3_600_000)
        }
        await #expect(throws: DiaryError.noFixNear("2026-06-15 08:40:00 +02:00", seconds: 60)) {
            try await diary.mark(.storedFix(time: inRide + 86_400_000, within: 60))
        }
        #expect(try store.readNow { try $0.records() }.count == 3, "a refused mark stores nothing")
    }

    @Test func fieldsAreParsedAndRefusedWithReasons() async throws {
        #expect(try DiaryService.field("weather=sunny") == Field(key: "weather", value: .text("sunny")))
        #expect(try DiaryService.field("n=3") == Field(key: "n", value: .number(3)))
        #expect(throws: DiaryError.notAField("sunny")) { try DiaryService.field("sunny") }
        #expect(throws: DiaryError.notAField("=x")) { try DiaryService.field("=x") }
        #expect(throws: DiaryError.badFieldName("a b")) { try DiaryService.field("a b=1") }
        #expect(DiaryError.notAField("x").kind == .badRequest)
    }

    @Test func notesGoOnRecordsOrOnTheNearestPoint() async throws {
        let (store, _) = try await storeWithRide()
        let diary = DiaryService(store: store, zone: zone)
        // Near a stored point: the point becomes a record.
        let id = try await diary.recordID(.nearest(time: inRide + 500, within: 120))
        let (note, record) = try await diary.addNote("Coffee stop", to: id)
        #expect(record.notes == [note] && !record.manual)
        await #expect(throws: DiaryError.emptyNote) { try await diary.addNote("  \n", to: id) }
        await #expect(throws: DiaryError.noRecordNear("2026-06-20 08:40:00 +02:00", seconds: 120)) {
            try await diary.recordID(.nearest(time: inRide + 6 * 86_400_000, within: 120))
        }
        await #expect(throws: DiaryError.noRecord(999, store: store.path)) { try await diary.recordID(.id(999)) }

        try await diary.editNote(note.id, text: "Coffee and cake")
        #expect(try await diary.note(note.id).text == "Coffee and cake")
        await #expect(throws: DiaryError.emptyNewText(note: note.id)) { try await diary.editNote(note.id, text: "") }
        // One missing id: nothing is deleted.
        await #expect(throws: DiaryError.noNote(77, store: store.path)) { try await diary.deleteNotes([note.id, 77]) }
        #expect(try store.readNow { try $0.note(note.id, account: nil) } != nil)
        try await diary.deleteNotes([note.id])
        #expect(try store.readNow { try $0.note(note.id, account: nil) } == nil)
    }

    @Test func fieldsAreSetRemovedAndSortedWithNumbersAsNumbers() async throws {
        let (store, _) = try await storeWithRide()
        let diary = DiaryService(store: store, zone: zone)
        let place = Coordinate(latitude: 47.4, longitude: 8.5)
        var ids: [Int64] = []
        for (minute, weight, weather) in [(40, "100", "sunny"), (41, "9", "rain"), (42, "12.5", "sunny")] {
            let r = try await diary.mark(
                .given(place, altitude: nil, time: inRide + Int64(minute - 40) * 60_000),
                fields: [try DiaryService.field("weight_kg=\(weight)"), try DiaryService.field("weather=\(weather)")])
            ids.append(r.id!)
        }
        _ = try await diary.mark(.given(place, altitude: nil, time: inRide + 600_000))
        var query = DiaryService.RecordQuery()
        query.sortField = "weight_kg"
        let sorted = try await diary.records(query)
        #expect(sorted.prefix(3).map(\.id) == [ids[1], ids[2], ids[0]], "9 < 12.5 < 100, not as text")
        #expect(sorted.last?.fields.isEmpty == true, "records without the field come after")
        query.conditions = [try DiaryService.field("weather=sunny")]
        query.reverse = true
        #expect(try await diary.records(query).map(\.id) == [ids[0], ids[2]])

        try await diary.setFields([try DiaryService.field("weather=fog")], on: ids[0])
        #expect(try await diary.record(ids[0]).fields.contains(Field(key: "weather", value: .text("fog"))))
        await #expect(throws: DiaryError.noField(record: ids[0], key: "nope")) {
            try await diary.removeFields(["weather", "nope"], from: ids[0])
        }
        #expect(try await diary.record(ids[0]).fields.count == 2, "nothing removed when one key is missing")
        try await diary.removeFields(["weather"], from: ids[0])
        #expect(try await diary.record(ids[0]).fields.map(\.key) == ["weight_kg"])
    }

    /// A photo that cannot be copied into the media folder stops the record, in one sentence,
    /// and the copies made before it go again: nothing is stored, nothing is left behind.
    @Test func aPhotoThatCannotBeCopiedLeavesNoCopyBehind() async throws {
        let (store, dir) = try await storeWithRide()
        let diary = DiaryService(store: store, zone: zone)
        try TestPhotos.make(dir + "/a.jpg", taken: "2026:06:14 08:35:00")
        try TestPhotos.make(dir + "/b.jpg", taken: "2026:06:14 09:00:00", colour: 1)
        let photos = try [PhotoFile(dir + "/a.jpg"), PhotoFile(dir + "/b.jpg")]
        // Gone between being read and being copied: the first is copied, the second cannot be.
        try FileManager.default.removeItem(atPath: dir + "/b.jpg")
        let place = Coordinate(latitude: 47.37, longitude: 8.54)
        let failure = await #expect(throws: PhotoError.self) {
            try await diary.mark(.given(place, altitude: nil, time: nil), note: "lost", photos: photos)
        }
        guard case .cannotCopy(let folder, _) = failure else {
            Issue.record("not a failed copy: \(String(describing: failure))")
            return
        }
        #expect(folder == store.mediaDirectory)
        #expect(failure?.description.hasPrefix("Cannot copy the photo into \(store.mediaDirectory): ") == true)
        let left = (try? FileManager.default.subpathsOfDirectory(atPath: store.mediaDirectory)) ?? []
        #expect(left.filter { $0.hasSuffix(".jpg") }.isEmpty, "copies left: \(left)")
        #expect(try await diary.records(DiaryService.RecordQuery()).isEmpty)
    }

    @Test func photosAttachAndGeotagByTime() async throws {
        let (store, dir) = try await storeWithRide()
        let diary = DiaryService(store: store, zone: zone)
        // Camera clock in Zurich time, 5 minutes slow.
        try TestPhotos.make(dir + "/a.jpg", taken: "2026:06:14 08:35:00")
        try TestPhotos.make(
            dir + "/b.jpg", taken: "2026:06:14 12:00:00", offset: "+02:00", gps: (46.0, 7.5, 1500), colour: 1)
        try TestPhotos.make(dir + "/c.jpg", taken: "2026:06:15 12:00:00", colour: 2)
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: dir + "/d.jpg"))
        let files = try PhotoFile.collect([dir])
        #expect(files.map { ($0 as NSString).lastPathComponent } == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        #expect(throws: PhotoError.self) { try PhotoFile(dir + "/d.jpg") }
        #expect(throws: PhotoError.missing(dir + "/none.jpg")) { try PhotoFile(dir + "/none.jpg") }
        #expect(throws: PhotoError.isFolder(dir)) { try PhotoFile(dir) }

        let photos = try files.prefix(3).map(PhotoFile.init)
        let outcomes = try await diary.geotag(photos, offset: 300, maxGap: 300)
        #expect(outcomes[0].taken == "2026-06-14T06:40:00.000Z" && outcomes[0].record != nil && !outcomes[0].created)
        #expect(outcomes[1].created && outcomes[1].record != nil)
        #expect(outcomes[2].record == nil && outcomes[2].skipped?.contains("no GPS position") == true)
        // The skipped photo left no file behind; the two others are in the media folder.
        let media = try FileManager.default.subpathsOfDirectory(atPath: store.mediaDirectory).filter {
            $0.hasSuffix(".jpg")
        }
        #expect(media.count == 2)
        // The same photo on another record is one file.
        let stored = try await diary.attach([photos[0]], to: outcomes[1].record!)
        #expect(stored.first?.sha256 == (try await diary.record(outcomes[0].record!)).photos.first?.sha256)
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: store.mediaDirectory).filter { $0.hasSuffix(".jpg") }
                .count == 2)
        await #expect(throws: DiaryError.noRecord(12345, store: store.path)) {
            try await diary.attach([photos[2]], to: 12345)
        }
    }

    @Test func removalChecksFirstThenRemovesForGood() async throws {
        let (store, _) = try await storeWithRide()
        let diary = DiaryService(store: store, zone: zone)
        let ride = try #require(try store.readNow { try $0.rides() }.first?.id)
        await #expect(throws: QueryError.noRide(ride + 1, store: store.path)) {
            try await diary.remove(.ride(ride + 1))
        }
        await #expect(throws: DiaryError.noRecord(5, store: store.path)) { try await diary.remove(.records([5])) }
        await #expect(throws: DiaryError.emptyRange) { try await diary.remove(.range(from: inRide, to: inRide)) }
        #expect(try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count == 1762)

        let removed = try await diary.remove(.range(from: inRide, to: inRide + 60_000))
        #expect(removed.points > 0)
        #expect(
            try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count == 1762
                - removed.points)
        _ = try await diary.setDaySummary(CivilDate(year: 2026, month: 6, day: 14)!, text: "  Loop \n")
        #expect(try await diary.daySummary(CivilDate(year: 2026, month: 6, day: 14)!) == "Loop")
        let day = try await diary.remove(.day(CivilDate(year: 2026, month: 6, day: 14)!))
        #expect(day.rides == 1 && day.daySummaries == 1)
        #expect(try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.isEmpty)
    }

    @Test func pauseResumeAndTheOverview() async throws {
        let (store, _) = try await storeWithRide()
        let control = RecorderControl(store: store)
        let now = UTCTimestamp.now()
        #expect(try await control.overview(now: now).paused == false)
        try await control.pause(until: now + 60_000)
        let paused = try await control.overview(now: now)
        #expect(paused.paused && paused.pausedUntil == now + 60_000)
        #expect(try await control.overview(now: now + 61_000).paused == false, "a timed pause ends by itself")
        try await control.pause(until: nil)
        #expect(try await control.overview(now: now + 86_400_000).paused, "until resumed")
        #expect(try await control.resume())
        #expect(try await control.resume() == false)
        let overview = try await control.overview(now: now)
        #expect(overview.running.isEmpty)
        #expect(overview.lastStoredPoint == (try store.readNow { try $0.latestPoint(devices: .all) }?.unixMilliseconds))
    }

    @Test func aRecordTakesItsOwnDevicesBarometerOverTheStations() async throws {
        let (store, _) = try await storeWithRide()
        let bike = try store.writeNow { try $0.device(named: "bike") }
        let stranger = DeviceID(rawValue: bike.rawValue + 100)
        _ = try store.writeNow {
            try $0.addWeatherReadings(
                [
                    WeatherReading(milliseconds: inRide - 3_600_000, temperature: 15, pressure: 1015),
                    WeatherReading(milliseconds: inRide + 3_600_000, temperature: 17, pressure: 1013),
                    WeatherReading(milliseconds: inRide - 600_000, pressure: 960.4, device: bike),
                    WeatherReading(milliseconds: inRide + 600_000, pressure: 960.0, device: bike),
                    WeatherReading(milliseconds: inRide, pressure: 900, device: stranger),
                ], account: nil)
        }
        let record = try await DiaryService(store: store, zone: zone).mark(.storedFix(time: inRide, within: 60))
        func value(_ key: String) -> ConditionValue? { record.conditions.first { $0.key == key } }
        // The device's own pressure (at the spot), the station's temperature; never another's.
        #expect(
            value("weather.pressure_hpa")
                == ConditionValue(key: "weather.pressure_hpa", value: .number(960.2), source: .device))
        #expect(
            value("weather.temperature_c")
                == ConditionValue(key: "weather.temperature_c", value: .number(16), source: .imported))
    }
}
