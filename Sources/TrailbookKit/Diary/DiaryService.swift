import Foundation
import GPSCore
import Pipeline
import Tides
import TrackModel

/// The diary use cases: marking places, notes, photos, fields, the day's summary, listing and
/// removing. Times are ms since 1970 UTC; `zone` is where local days and printed times are.
///
/// Each use case is one or more units of work the store runs on its own threads (`store.read`,
/// `store.write`): nothing here touches the store on the caller's thread, so the web app awaits
/// them from its routes as the commands do. Photo files are copied and deleted through
/// ``Blocking``, outside any unit.
public struct DiaryService: Sendable {
    public let store: any TrackStoring
    public let zone: TimeZone
    /// The tide station whose predictions new records get (nil: no tide).
    public let tide: TideStation?
    /// Whose diary: an account of the store (a server's user); nil for the store's own user.
    public let account: String?

    /// `zone`: where local days are, and how times in sentences are shown. A use case that adds a
    /// record for an `account` the store does not have is ``DiaryError/noAccount(_:)``.
    public init(
        store: any TrackStoring, zone: TimeZone = TimeZone(identifier: "UTC")!, tide: TideStation? = nil,
        account: String? = nil
    ) {
        self.store = store
        self.zone = zone
        self.tide = tide
        self.account = account
    }

    /// The devices of the diary's account.
    var devices: DeviceFilter { DeviceFilter(account: account) }

    /// The ids of the diary's account's devices.
    func deviceIDs(in tx: any StoreReading) throws -> Set<DeviceID> {
        guard let account else { return Set(try tx.devices().map(\.id)) }
        return Set(try tx.devices(of: account)?.map(\.id) ?? [])
    }

    // MARK: marking

    /// Where a new record goes.
    public enum Placement: Sendable {
        /// At this place, at `time` (nil: now).
        case given(Coordinate, altitude: Double?, time: Int64?)
        /// At `time`, at the stored fix nearest it within `within` seconds.
        case storedFix(time: Int64, within: Double)
        /// At the latest stored fix, which must be at most `maxAge` seconds old.
        case latest(maxAge: Double)
    }

    /// Adds a record with what it carries and the conditions of its moment, in one unit of work;
    /// the photos are copied first and removed again when the record cannot be stored.
    public func mark(
        _ placement: Placement, note: String? = nil, fields: [Field] = [], photos: [PhotoFile] = [],
        kind: RecordKind? = nil, conditions: [ConditionValue] = [], now: Int64 = UTCTimestamp.now()
    ) async throws -> LocationRecord {
        var fields = fields
        if let kind {
            // Checked before anything is read or copied: a record that does not fit is not stored.
            if let problem = kind.problem(fields.map { ($0.key, $0.value.description) }) {
                throw DiaryError.badRecord(problem)
            }
            fields.removeAll { $0.key == "kind" }
            fields.insert(Field(key: "kind", value: .text(kind.name)), at: 0)
        }
        let (time, coordinate, altitude) = try await place(placement, now: now)
        let stored = try await storePhotos(photos)
        do {
            return try await store.write { [fields] tx in
                guard
                    let id = try tx.addRecord(
                        milliseconds: time, coordinate: coordinate, altitude: altitude, notes: note.map { [$0] } ?? [],
                        fields: fields, photos: stored, account: account)
                else { throw DiaryError.noAccount(account ?? "") }
                try captureConditions(id, in: tx)
                // What the user observed wins over what was computed for the same key.
                if !conditions.isEmpty { try tx.setConditions(conditions, on: id, account: account) }
                return try tx.record(id, account: account)!
            }
        } catch {
            await discard(stored)
            throw error
        }
    }

    /// The time, place and altitude `placement` gives (a stored fix is read in one unit).
    private func place(_ placement: Placement, now: Int64) async throws -> (Int64, Coordinate, Double?) {
        if case .given(let place, let alt, let at) = placement { return (at ?? now, place, alt) }
        return try await store.read { tx in
            switch placement {
            case .given(let place, let alt, let at): return (at ?? now, place, alt)
            case .storedFix(let at, let within):
                guard let fix = try tx.nearestPoint(to: at, within: Int64(within * 1000), devices: devices) else {
                    throw DiaryError.noFixNear(LocalTime.format(at, zone: zone), seconds: Int(within))
                }
                return (at, fix.coordinate!, fix.altitudeMSL)
            case .latest(let maxAge):
                guard let fix = try tx.latestPoint(devices: devices),
                    now - fix.unixMilliseconds! <= Int64(maxAge * 1000)
                else {
                    throw DiaryError.noRecentFix(seconds: Int(maxAge))
                }
                return (fix.unixMilliseconds!, fix.coordinate!, fix.altitudeMSL)
            }
        }
    }

    /// Copies the photo files into the media folder, off the caller's thread.
    /// On failure, what this call copied is removed.
    private func storePhotos(_ photos: [PhotoFile], offset: Double = 0) async throws -> [Photo] {
        if photos.isEmpty { return [] }
        let (store, zone) = (store, zone)
        let (stored, failure) = await Blocking.run { () -> ([Photo], String?) in
            var stored: [Photo] = []
            for p in photos {
                do {
                    stored.append(
                        try store.storePhotoFile(p.path, takenMilliseconds: p.taken(zone: zone, offset: offset)))
                } catch {
                    return (stored, "\(error)")
                }
            }
            return (stored, nil)
        }
        guard let failure else { return stored }
        await discard(stored)
        throw PhotoError.cannotCopy(folder: store.mediaDirectory, reason: failure)
    }

    /// Deletes copied photo files no record took, off the caller's thread.
    private func discard(_ photos: [Photo]) async {
        if photos.isEmpty { return }
        _ = try? await store.write { $0.discardUnattached(photos) }
    }

    /// Stores the computed conditions of record `id`'s moment and place, unless it has them.
    func captureConditions(_ id: Int64, in tx: any StoreWriting) throws {
        guard let record = try tx.record(id, account: account),
            !record.conditions.contains(where: { $0.source == .computed })
        else { return }
        let ms = record.milliseconds
        let readings = try tx.weatherReadings(
            fromMilliseconds: ms - 2 * WeatherImportService.maximumGap,
            toMilliseconds: ms + WeatherImportService.maximumGap + 1, account: account)
        try tx.setConditions(
            ConditionsService(
                zone: ConditionsService.zone(near: record.coordinate.longitude, at: ms, configured: zone), tide: tide
            ).snapshot(at: ms, coordinate: record.coordinate)
                + WeatherImportService.conditions(readings, at: ms, devices: try deviceIDs(in: tx)), on: id,
            account: account)
    }

    /// The record `id`, which must exist.
    public func record(_ id: Int64) async throws -> LocationRecord {
        try await store.read { tx in try record(id, in: tx) }
    }

    /// The record `id` as `tx` sees it, which must exist.
    func record(_ id: Int64, in tx: any StoreReading) throws -> LocationRecord {
        guard let record = try tx.record(id, account: account) else {
            throw DiaryError.noRecord(id, store: store.path)
        }
        return record
    }

    // MARK: photos

    /// Attaches the photos to record `id` (copied into the media folder first).
    public func attach(_ photos: [PhotoFile], to id: Int64) async throws -> [Photo] {
        _ = try await record(id)
        let stored = try await storePhotos(photos)
        do {
            try await store.write { tx in
                guard try tx.attachPhotos(stored, to: id, account: account) else {
                    throw DiaryError.noRecord(id, store: store.path)
                }
            }
        } catch {
            await discard(stored)
            throw error
        }
        return stored
    }

    /// What geotagging did with one photo.
    public struct GeotagOutcome: Encodable, Sendable, Equatable {
        public var file: String
        /// The record it went on (nil: skipped).
        public var record: Int64?
        /// When it was taken (UTC, ISO 8601).
        public var taken: String?
        /// Whether a new record was made at the photo's GPS position.
        public var created: Bool
        /// Why it found no place, as a clause.
        public var skipped: String?
    }

    /// Puts each photo on the record or stored point nearest the time it was taken (the camera
    /// clock plus `offset` seconds) within `maxGap` seconds; else, when it has GPS tags, on a new
    /// record at its position; else it is skipped with the reason.
    public func geotag(_ photos: [PhotoFile], offset: Double, maxGap: Double) async throws -> [GeotagOutcome] {
        var outcomes: [GeotagOutcome] = []
        for photo in photos {
            let taken = photo.taken(zone: zone, offset: offset)
            var outcome = GeotagOutcome(file: photo.path, taken: taken.map(LocalTime.utc), created: false)
            guard let taken else {
                outcome.skipped =
                    photo.exifProblem.map { "\($0)" } ?? "it has no EXIF time (DateTimeOriginal or GPS time)"
                outcomes.append(outcome)
                continue
            }
            let stored = try await storePhotos([photo], offset: offset)
            do {
                // The record found (or made) and the photo on it are one unit of work.
                let placed = try await store.write { tx -> (id: Int64, created: Bool)? in
                    if let near = try tx.nearestRecordID(to: taken, within: Int64(maxGap * 1000), account: account) {
                        try tx.attachPhotos(stored, to: near, account: account)
                        try captureConditions(near, in: tx)
                        return (near, false)
                    }
                    guard let place = photo.metadata.coordinate else { return nil }
                    guard
                        let added = try tx.addRecord(
                            milliseconds: taken, coordinate: place, altitude: photo.metadata.altitude, notes: [],
                            fields: [], photos: stored, account: account)
                    else { throw DiaryError.noAccount(account ?? "") }
                    try captureConditions(added, in: tx)
                    return (added, true)
                }
                if let placed {
                    (outcome.record, outcome.created) = (placed.id, placed.created)
                } else {
                    await discard(stored)
                    let clock =
                        photo.metadata.cameraClockMilliseconds != nil && photo.metadata.offsetMinutes == nil
                        ? " (its camera clock read in \(zone.displayIdentifier)\(offset == 0 ? "" : ", shifted by \(offset) s"))"
                        : ""
                    outcome.skipped =
                        "no record within \(Int(maxGap)) s of \(LocalTime.format(taken, zone: zone))\(clock) "
                        + "and no GPS position in it"
                }
            } catch {
                await discard(stored)
                throw error
            }
            outcomes.append(outcome)
        }
        return outcomes
    }

    // MARK: notes

    /// Which record a note goes on.
    public enum RecordTarget: Sendable {
        case id(Int64)
        /// The record or stored point nearest `time` within `within` seconds (a point becomes a
        /// record).
        case nearest(time: Int64, within: Double)
    }

    /// The record a target names (a point near the time becomes a record now).
    public func recordID(_ target: RecordTarget) async throws -> Int64 {
        try await store.write { tx in
            let id: Int64
            switch target {
            case .id(let given):
                guard try tx.record(given, account: account) != nil else {
                    throw DiaryError.noRecord(given, store: store.path)
                }
                id = given
            case .nearest(let time, let within):
                guard let near = try tx.nearestRecordID(to: time, within: Int64(within * 1000), account: account)
                else {
                    throw DiaryError.noRecordNear(LocalTime.format(time, zone: zone), seconds: Int(within))
                }
                id = near
            }
            try captureConditions(id, in: tx)
            return id
        }
    }

    /// Adds a note; empty text (only white space) is refused.
    public func addNote(_ text: String, to id: Int64) async throws -> (note: Note, record: LocationRecord) {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw DiaryError.emptyNote }
        return try await store.write { tx in
            guard let note = try tx.addNote(to: id, text: text, account: account),
                let record = try tx.record(id, account: account)
            else { throw DiaryError.noRecord(id, store: store.path) }
            return (note, record)
        }
    }

    /// The note `id`, which must exist.
    public func note(_ id: Int64) async throws -> Note {
        try await store.read { tx in
            guard let note = try tx.note(id, account: account) else { throw DiaryError.noNote(id, store: store.path) }
            return note
        }
    }

    /// Replaces a note's text; empty text is refused (delete the note instead).
    public func editNote(_ id: Int64, text: String) async throws {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            _ = try await note(id)
            throw DiaryError.emptyNewText(note: id)
        }
        try await store.write { tx in
            guard try tx.updateNote(id, text: text, account: account) else {
                throw DiaryError.noNote(id, store: store.path)
            }
        }
    }

    /// Deletes notes for good, in one unit of work; nothing is deleted when one of them does not
    /// exist.
    public func deleteNotes(_ ids: [Int64]) async throws {
        try await store.write { tx in
            for id in ids where try tx.deleteNote(id, account: account) == nil {
                throw DiaryError.noNote(id, store: store.path)
            }
        }
    }

    // MARK: fields

    /// Sets fields on record `id`, replacing the same keys.
    public func setFields(_ fields: [Field], on id: Int64) async throws {
        try await store.write { tx in
            _ = try record(id, in: tx)
            try tx.setFields(fields, on: id, account: account)
        }
    }

    /// Removes fields from record `id`; nothing is removed when one of them is not there.
    public func removeFields(_ keys: [String], from id: Int64) async throws {
        try await store.write { tx in
            _ = try record(id, in: tx)
            for key in keys where try !tx.removeField(key, from: id, account: account) {
                throw DiaryError.noField(record: id, key: key)
            }
        }
    }

    /// `KEY=VALUE` as a field; a number stays a number.
    public static func field(_ text: String) throws(DiaryError) -> Field {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else { throw .notAField(text) }
        let key = String(text[..<eq]).trimmingCharacters(in: .whitespaces)
        guard key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
            throw .badFieldName(key)
        }
        return Field(key: key, value: FieldValue(parsing: String(text[text.index(after: eq)...])))
    }

    // MARK: listing

    /// Which records to list and in what order.
    public struct RecordQuery: Sendable {
        /// `[from, to)`, ms since 1970 UTC.
        public var from: Int64 = .min
        public var to: Int64 = .max
        /// Also every stored point without a record.
        public var plainPoints = false
        /// Fields that must all hold.
        public var conditions: [Field] = []
        /// Sort by this field (nil: by time): records with it first, by value (numbers as
        /// numbers), the others after them in time order.
        public var sortField: String?
        /// Only records of this kind (its `kind` field); a sort field of the kind sorts by its
        /// value in SI (5.5lb after 2 kg).
        public var kind: RecordKind?
        public var reverse = false

        public init() {}
    }

    public func records(_ query: RecordQuery) async throws -> [LocationRecord] {
        try await store.read { tx in try records(query, in: tx) }
    }

    /// ``records(_:)`` as `tx` sees them.
    func records(_ query: RecordQuery, in tx: any StoreReading) throws -> [LocationRecord] {
        var list = try tx.records(
            fromMilliseconds: query.from, toMilliseconds: query.to, plainPoints: query.plainPoints, account: account)
        list = list.filter { r in
            query.conditions.allSatisfy { w in r.fields.contains { $0.key == w.key && $0.value == w.value } }
        }
        if let kind = query.kind {
            list = list.filter { r in r.fields.contains { $0.key == "kind" && $0.value == .text(kind.name) } }
        }
        if let key = query.sortField {
            let typed = query.kind?.field(key)
            func value(_ r: LocationRecord) -> FieldValue? {
                guard let v = r.fields.first(where: { $0.key == key })?.value else { return nil }
                if let typed, let si = typed.sortValue(v.description) { return .number(si) }
                return v
            }
            list = list.enumerated().sorted { a, b in
                switch (value(a.element), value(b.element)) {
                case (.number(let x)?, .number(let y)?): if x != y { return x < y }
                case (.number?, .text?): return true
                case (.text?, .number?): return false
                case (.text(let x)?, .text(let y)?):
                    if x != y { return x.localizedStandardCompare(y) == .orderedAscending }
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): break
                }
                return a.offset < b.offset
            }.map(\.element)
        }
        if query.reverse { list.reverse() }
        return list
    }

    // MARK: day summary

    public func daySummary(_ day: CivilDate) async throws -> String? {
        try await store.read { tx in try tx.daySummary(day, account: account) }
    }

    /// Sets the day's summary, trimmed; empty text removes it. Returns the text kept.
    public func setDaySummary(_ day: CivilDate, text: String) async throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await store.write { tx in try tx.setDaySummary(day, text: trimmed, account: account) }
        return trimmed
    }

    // MARK: removal

    /// What to remove for good.
    public enum RemovalTarget: Sendable {
        case records([Int64])
        case ride(Int64)
        /// A local day (where the person was, ``DayZone``): everything recorded on it, and its
        /// summary.
        case day(CivilDate)
        /// Points and records in `[from, to)`.
        case range(from: Int64, to: Int64)
    }

    /// Checks that what `target` names exists, before anyone is asked to confirm.
    public func checkRemoval(_ target: RemovalTarget) async throws {
        try await store.read { tx in try checkRemoval(target, in: tx) }
    }

    private func checkRemoval(_ target: RemovalTarget, in tx: any StoreReading) throws {
        switch target {
        case .records(let ids): for id in ids { _ = try record(id, in: tx) }
        case .ride(let id):
            if try tx.rideRange(id) == nil { throw QueryError.noRide(id, store: store.path) }
        case .range(let from, let to): if to <= from { throw DiaryError.emptyRange }
        case .day: break
        }
    }

    /// What `target` would remove, one line per thing, for the question asked before removing.
    public func preview(_ target: RemovalTarget) async throws -> [String] {
        try await store.read { tx in try preview(target, in: tx) }
    }

    private func preview(_ target: RemovalTarget, in tx: any StoreReading) throws -> [String] {
        try checkRemoval(target, in: tx)
        func carried(_ records: [LocationRecord]) -> String {
            var totals: [(Int, String)] = []
            totals.append((records.map { $0.notes.count }.reduce(0, +), "note"))
            totals.append((records.map { $0.photos.count }.reduce(0, +), "photo"))
            totals.append((records.map { $0.fields.count }.reduce(0, +), "field"))
            let parts = totals.filter { $0.0 > 0 }.map { counted($0.0, $0.1) }
            return parts.isEmpty ? "" : " with " + parts.joined(separator: ", ")
        }
        func rideNames(_ from: Int64, _ to: Int64) throws -> String {
            let ids = try tx.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices).map(\.id)
            return ids.isEmpty
                ? "" : " of ride" + (ids.count == 1 ? " " : "s ") + ids.map(String.init).joined(separator: ", ")
        }
        switch target {
        case .records(let ids):
            return try ids.map { id in
                let r = try record(id, in: tx)
                let time = LocalTime.format(r.milliseconds, zone: zone)
                if r.manual { return "record \(id), marked at \(time)\(carried([r]))" }
                return "record \(id)\(carried([r])): the stored point at \(time)"
                    + "\(try rideNames(r.milliseconds, r.milliseconds + 1)), which leaves its ride"
            }
        case .ride(let id):
            let range = try tx.rideRange(id)!
            let ride = try tx.rides(fromMilliseconds: range.start, toMilliseconds: range.end + 1, devices: devices)
                .first { $0.id == id }
            let records = try tx.records(
                fromMilliseconds: range.start, toMilliseconds: range.end + 1, account: account
            ).filter {
                !$0.manual
            }
            var lines = [
                "ride \(id): \(counted(ride?.pointCount ?? 0, "point")) in \(counted(ride?.segmentCount ?? 0, "segment")), "
                    + "\(LocalTime.format(range.start, zone: zone)) to \(LocalTime.format(range.end, zone: zone))"
            ]
            if !records.isEmpty { lines.append("\(counted(records.count, "record")) of its points\(carried(records))") }
            return lines
        case .day(let day):
            let (from, to) = try dayRange(day, in: tx)
            return try rangeLines(from, to, rideNames(from, to))
                + (try tx.daySummary(day, account: account) != nil ? ["the day's summary"] : [])
        case .range(let from, let to):
            return try rangeLines(from, to, rideNames(from, to))
        }
        func rangeLines(_ from: Int64, _ to: Int64, _ rides: String) throws -> [String] {
            let points = try tx.points(fromMilliseconds: from, toMilliseconds: to, devices: devices).count
            let records = try tx.records(fromMilliseconds: from, toMilliseconds: to, account: account)
            return [counted(points, "point") + rides]
                + (records.isEmpty ? [] : [counted(records.count, "record") + carried(records)])
        }
    }

    /// `[start, end)` of local day `day`, cut where the account's devices were (``DayZone``).
    private func dayRange(_ day: CivilDate, in tx: any StoreReading) throws -> (Int64, Int64) {
        let (from, to, _) = try DayZone.range(
            first: day, last: day, store: tx, devices: DeviceFilter(account: account), zone: zone)
        return (from, to)
    }

    /// Removes for good (secure delete, photo files no longer used deleted), in one unit of work;
    /// then the kept timeline of that time is made again (``TimelineKeeper/redoAsKept(store:account:from:to:)``).
    public func remove(_ target: RemovalTarget) async throws -> Removal {
        let (removal, span) = try await store.write { tx -> (Removal, (Int64, Int64)?) in
            try checkRemoval(target, in: tx)
            switch target {
            case .records(let ids):
                let times = try ids.compactMap { try tx.record($0, account: account)?.milliseconds }
                let span = times.min().map { ($0, times.max()! + 1) }
                return (try tx.remove(records: ids, account: account).removal, span)
            case .ride(let id):
                let span = try tx.rideRange(id).map { ($0.start, $0.end + 1) }
                return (try tx.remove(ride: id, account: account) ?? Removal(), span)
            case .day(let day):
                let (from, to) = try dayRange(day, in: tx)
                return (
                    try tx.remove(fromMilliseconds: from, toMilliseconds: to, days: [day], account: account), (from, to)
                )
            case .range(let from, let to):
                let removal = try tx.remove(fromMilliseconds: from, toMilliseconds: to, days: [], account: account)
                return (removal, (from, to))
            }
        }
        if let (from, to) = span {
            try await TimelineKeeper.redoAsKept(store: store, account: account, from: from, to: to)
        }
        return removal
    }
}
