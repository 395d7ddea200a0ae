import Foundation
import GPSCore

/// A store shared by the whole process, reached through units of work alone: a read unit
/// (``StoreReading``) or a write unit (``StoreWriting``) runs several operations in one
/// transaction. Nothing is read or written outside one.
///
/// A unit of work is synchronous inside and async at the boundary, as GRDB's
/// `DatabaseWriter.write` is: `try await store.write { tx in ... }` runs its body on the store's
/// own threads (never Swift's cooperative ones) in one write transaction, committed when the
/// body returns and rolled back when it throws; `read` sees one consistent state. The `tx` must
/// not escape its body. What a unit removes from outside the database (photo files) goes once it
/// has committed.
public protocol TrackStoring: AnyObject, Sendable {
    /// Where the store is, for sentences.
    var path: String { get }
    /// The folder that holds the photo files.
    var mediaDirectory: String { get }
    /// Whether `error` is a write that gave up waiting for another writer.
    func isBusy(_ error: any Error) -> Bool
    /// Whether `error` means the store is away for now (a database server that does not answer):
    /// the same request can succeed later.
    func isUnavailable(_ error: any Error) -> Bool
    /// Writes may wait at most `seconds` for another writer, then fail with an error
    /// ``isBusy(_:)`` recognises (for a recorder, which must keep reading its receiver).
    func limitWriteWait(to seconds: TimeInterval) throws
    /// Copies a photo into the media folder (once per content) and returns it, to attach in a
    /// unit: a copy, no transaction.
    func storePhotoFile(_ source: String, takenMilliseconds: Int64?) throws -> Photo
    /// Runs `body` in one write transaction, off the cooperative threads.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriting) throws -> T) async throws -> T
    /// Runs `body` on one consistent state of the store, off the cooperative threads.
    /// The body is handed what a read unit may do: it cannot write.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReading) throws -> T) async throws -> T
    /// The account and device of a live token, as ``AccountReading/device(tokenHash:)``, read
    /// off the cooperative threads without a unit around the one read: every request of a phone
    /// asks it (on PostgreSQL a unit's BEGIN and COMMIT would be two round trips more, and a
    /// thread of the store's is not needed for one statement). A store may give it from a cache,
    /// so a token revoked through another process can still be given: a batch for its device
    /// is then refused (``TrackWriting/place(_:drops:rule:state:)`` throws ``DeviceRevoked``).
    func readPhoneDevice(tokenHash: String) async throws -> (account: String, device: DeviceID, name: String)?
    /// What the live viewers of each of `devices` are shown, as
    /// ``SharingReading/liveView(owner:device:viewers:limit:)`` gives it for one, in the order of
    /// `devices`; read as ``readPhoneDevice(tokenHash:)`` is, and together: the devices whose
    /// phones sent points while the last read ran (on PostgreSQL one statement for all).
    func readLiveViews(of devices: [OwnedDevice], viewers: Set<String>, limit: Int) async throws -> [LiveView]
    /// Begins the import of a file still being read as `device`'s points: a write unit of its
    /// own, whose one transaction runs until ``ImportWriting/finish(_:places:)`` commits it (or
    /// ``ImportWriting/cancel()`` rolls it back). A store that cannot write meanwhile holds the
    /// points until then (``DeferredImport``).
    func beginImport(device: DeviceID, file: ImportedFile?, replacing earlier: StoredImport?) throws
        -> any ImportWriting
}

/// What a unit of work reads (``TrackStoring/read(_:)``, and a write unit too): what every store
/// (SQLite, PostgreSQL) provides and what `StoreContract` checks. Times are ms since 1970, UTC;
/// everything belongs to an account (`me` in a local store) and one of its devices. A read unit
/// is handed this alone, so it cannot write (as GRDB's `read` refuses writes).
public protocol StoreReading: AccountReading, SharingReading, SessionReading, UploadReading, EventReading,
    AlertReading, GazetteerReading, VisitReading
{
    /// Where the store is, for sentences.
    var path: String { get }
    /// The folder that holds the photo files.
    var mediaDirectory: String { get }
    /// The user's devices, by name.
    func devices() throws -> [StoredDevice]
    /// The account's imports by the SHA-256 of their files' bytes (nil: the store's own user's).
    /// Each account's imports are its own.
    func importedFiles(account: String?) throws -> [String: StoredImport]
    /// Whether `error` is a write that gave up waiting for another writer.
    func isBusy(_ error: any Error) -> Bool
    /// Whether `error` means the store is away for now (a database server that does not answer):
    /// the same request can succeed later.
    func isUnavailable(_ error: any Error) -> Bool

    // MARK: points and rides

    /// The newest stored point of `devices`.
    func latestPoint(devices: DeviceFilter) throws -> Fix?
    /// The stored point of `devices` nearest `ms` within `within` ms.
    func nearestPoint(to ms: Int64, within: Int64, devices: DeviceFilter) throws -> Fix?
    /// Points of `devices` in `[from, to)`, in time order.
    func points(fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter) throws -> [Fix]
    /// The same points handed to `body` in time order as they are read, none kept (a store
    /// without a cursor for them reads the list, ``points(fromMilliseconds:toMilliseconds:devices:)``).
    func forEachPoint(
        fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter, _ body: (Fix) throws -> Void
    ) throws
    /// Points of `devices` in `[from, to)` with their stored ride, segment and device name.
    func pointsWithSegments(fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter) throws
        -> [PlacedPoint]
    /// Rides of `devices` overlapping `[from, to)`, oldest first.
    func rides(fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter) throws -> [StoredRide]
    /// The first and last point's time of ride `id`; nil when there is no such ride.
    func rideRange(_ id: Int64) throws -> (start: Int64, end: Int64)?
    func record(_ id: Int64, account: String?) throws -> LocationRecord?
    /// Records in `[from, to)` in time order; with `plainPoints` every point of the account's
    /// devices without a record too.
    func records(fromMilliseconds from: Int64, toMilliseconds to: Int64, plainPoints: Bool, account: String?) throws
        -> [LocationRecord]
    func note(_ id: Int64, account: String?) throws -> Note?
    /// The weather readings in `[from, to)`, in time order.
    func weatherReadings(fromMilliseconds from: Int64, toMilliseconds to: Int64, account: String?) throws
        -> [WeatherReading]
    func daySummary(_ day: CivilDate, account: String?) throws -> String?

    // MARK: the recorder

    /// nil: not paused; 0: paused until resumed; else paused until that time.
    func pausedUntil() throws -> Int64?
    /// Newest heartbeat first, with the device's name.
    func recorderStatuses() throws -> [RecorderStatus]
}

/// What a write unit (``TrackStoring/write(_:)``) does besides reading: all of it in the unit's
/// one transaction.
public protocol StoreWriting: StoreReading, AccountStoring, SharingStoring, SessionStoring, UploadStoring,
    EventStoring, AlertStoring, GazetteerStoring, VisitStoring
{
    // MARK: devices

    /// The device `name`, created on first use; the same name gives the same id.
    func device(named name: String) throws -> DeviceID
    /// The device `name` of `account` (nil: the store's own user), created on first use; nil when
    /// the store has no such account.
    func device(named name: String, account: String?) throws -> DeviceID?

    // MARK: writing points

    /// A writer that stores kept points as `device`'s, continuing its rides and segments.
    func makeWriter(device: DeviceID) -> any TrackWriting
    /// Writes may wait at most `seconds` for another writer, then fail with an error
    /// ``isBusy(_:)`` recognises (for a recorder, which must keep reading its receiver).
    func limitWriteWait(to seconds: TimeInterval) throws

    // MARK: records: each account's diary (nil: the store's own user)
    //
    // A record id, note id or day of another account is as if it did not exist.

    /// Adds a manual record with what it carries, in one transaction; returns its id, nil when
    /// there is no such account.
    func addRecord(
        milliseconds: Int64, coordinate: Coordinate, altitude: Double?, notes: [String], fields: [Field],
        photos: [Photo], account: String?
    ) throws -> Int64?
    /// The record or point of the account's devices nearest `ms` within `within` ms, as a record
    /// id (a point gets its record now); nil when nothing is that near.
    func nearestRecordID(to ms: Int64, within: Int64, account: String?) throws -> Int64?
    /// The note added; nil when the account has no such record.
    func addNote(to record: Int64, text: String, account: String?) throws -> Note?
    /// Whether the note existed.
    func updateNote(_ id: Int64, text: String, account: String?) throws -> Bool
    /// Deletes the note for good (its text overwritten); the note it was, or nil.
    func deleteNote(_ id: Int64, account: String?) throws -> Note?
    /// Sets fields, replacing the same keys; whether the record is there.
    @discardableResult func setFields(_ fields: [Field], on record: Int64, account: String?) throws -> Bool
    /// Whether the field was there.
    func removeField(_ key: String, from record: Int64, account: String?) throws -> Bool
    /// Sets condition values, replacing the same keys (whatever their source); whether the record
    /// is there.
    @discardableResult func setConditions(_ values: [ConditionValue], on record: Int64, account: String?) throws
        -> Bool
    /// Stores weather readings, replacing one of the same source (station or device) at the same
    /// millisecond; how many were new.
    func addWeatherReadings(_ readings: [WeatherReading], account: String?) throws -> Int
    /// Attaches photos; a content is one photo (the name it was first stored under), once per
    /// record. Whether the record is there.
    @discardableResult func attachPhotos(_ photos: [Photo], to record: Int64, account: String?) throws -> Bool
    /// Copies a photo into the media folder (once per content) and returns it, to attach.
    func storePhotoFile(_ source: String, takenMilliseconds: Int64?) throws -> Photo
    /// Deletes the files of `photos` that no record uses.
    func discardUnattached(_ photos: [Photo])
    /// Sets the day's summary; empty text removes it. False when there is no such account.
    @discardableResult func setDaySummary(_ day: CivilDate, text: String, account: String?) throws -> Bool

    // MARK: removal, for good

    /// Removes the account's records and what they carry (a point's record takes the point). When
    /// an id is not there, nothing is removed and the missing ids are returned.
    func remove(records ids: [Int64], account: String?) throws -> (removal: Removal, missing: [Int64])
    /// Removes a ride of the account's devices with its points, segments and their records; nil
    /// when there is no such ride.
    func remove(ride id: Int64, account: String?) throws -> Removal?
    /// Removes the account's points and records in `[from, to)`, and its summaries of `days`.
    func remove(fromMilliseconds from: Int64, toMilliseconds to: Int64, days: [CivilDate], account: String?) throws
        -> Removal
    func setPausedUntil(_ until: Int64?) throws
    func writeRecorderStatus(_ status: RecorderStatus, device: DeviceID) throws
    func removeRecorderStatus(device: DeviceID) throws
}

/// Stores kept points for one device. The pipeline numbers rides and segments within a run
/// (1, 2, ...); the writer makes the stored rides and segments and keeps their ranges and
/// counts. A point whose millisecond the device already has is skipped.
public protocol TrackWriting: AnyObject {
    var device: DeviceID { get }
    /// Points this writer stored.
    var stored: Int { get }
    /// The stored rides and segments of the run's numbers so far: a writer made in the next unit
    /// of work continues where this one ended when it is given this (``write(_:drops:)``).
    var numbering: RunNumbering { get set }
    /// Stores a batch and adds `drops` (run-local ride → reason → count) in one transaction,
    /// continuing the rides and segments of earlier batches; returns the points added.
    @discardableResult
    func write(_ points: [KeptPoint], drops: [Int: [String: Int]]) throws -> Int
    /// Stores points of any time (a phone's batch, late points included) in one transaction,
    /// each in the segment and ride ``PointPlacement`` gives it among the device's stored ones;
    /// a millisecond the device has is skipped. `drops` (reason → count) go to the ride of the
    /// newest point placed (else the device's latest ride). Returns the points added.
    /// With `state`, what the phone said of itself goes in with them when
    /// ``DeviceStateUpdate/applies(added:)`` (as ``SharingStoring/setDeviceState(_:atMilliseconds:battery:accuracy:)``).
    /// Throws ``DeviceRevoked``, storing nothing, when the device's token was revoked or the
    /// device is gone (a store may then give its token from a cache: the write decides).
    @discardableResult
    func place(_ points: [KeptPoint], drops: [String: Int], rule: PointPlacement, state: DeviceStateUpdate?) throws
        -> Int
    /// As ``place(_:drops:rule:state:)``, as the last thing its write unit does: a store may then
    /// commit the batch with its one statement (PostgreSQL: a phone's one point after the
    /// device's newest segment, one round trip where a transaction is three). Nothing may be
    /// read or written in the unit after it.
    @discardableResult
    func placeLast(_ points: [KeptPoint], drops: [String: Int], rule: PointPlacement, state: DeviceStateUpdate?)
        throws -> Int
    /// Stores a file's streams and places in one transaction; rides and segments that overlap
    /// stored ones of the device in time merge with them. With `earlier`, what that import
    /// stored is removed first. The file is noted when something was stored.
    func writeImport(
        _ streams: [ImportStream], places: [ImportedPlace], accountPlaces: ImportedPlaces, file: ImportedFile?,
        replacing earlier: StoredImport?
    ) throws -> ImportOutcome
    /// Begins the import of a file that is still being read: what ``writeImport(_:places:file:replacing:)``
    /// stores, with the points added as they are kept. A store that cannot write meanwhile
    /// (the default) holds them until ``ImportWriting/finish(_:places:)``.
    func beginImport(file: ImportedFile?, replacing earlier: StoredImport?) throws -> any ImportWriting
}

extension TrackWriting {
    /// ``writeImport(_:places:accountPlaces:file:replacing:)`` of a file that tells of no areas or places.
    public func writeImport(
        _ streams: [ImportStream], places: [ImportedPlace], file: ImportedFile?, replacing earlier: StoredImport?
    ) throws -> ImportOutcome {
        try writeImport(streams, places: places, accountPlaces: ImportedPlaces(), file: file, replacing: earlier)
    }

    /// Stores points of any time, with no state of the phone (``place(_:drops:rule:state:)``).
    @discardableResult
    public func place(_ points: [KeptPoint], drops: [String: Int], rule: PointPlacement) throws -> Int {
        try place(points, drops: drops, rule: rule, state: nil)
    }

    /// A store that commits nothing before its unit does places them as any batch.
    @discardableResult
    public func placeLast(
        _ points: [KeptPoint], drops: [String: Int], rule: PointPlacement, state: DeviceStateUpdate?
    ) throws -> Int {
        try place(points, drops: drops, rule: rule, state: state)
    }
}

/// A phone's batch for a device whose token was revoked, or that is gone with its account,
/// since the token was read: nothing of the batch was stored.
public struct DeviceRevoked: Error, CustomStringConvertible {
    public let device: DeviceID

    public init(device: DeviceID) { self.device = device }

    public var description: String { "device \(device.rawValue) was revoked or removed; nothing was stored" }
}

/// What a phone's batch said of the phone (its battery, the accuracy of its newest point), for
/// the device's state, when the batch holds a point newer than any the device sent before.
public struct DeviceStateUpdate: Sendable, Equatable {
    /// The batch's newest point's time, ms.
    public var milliseconds: Int64
    public var battery: Double?
    public var accuracy: Double?

    public init(milliseconds: Int64, battery: Double?, accuracy: Double?) {
        self.milliseconds = milliseconds
        self.battery = battery
        self.accuracy = accuracy
    }

    /// Whether the state moves on when the batch added `added` points: a batch that stored
    /// nothing (its points all stored before) moves it only with a battery level.
    public func applies(added: Int) -> Bool { added > 0 || battery != nil }

    /// How a new state meets the stored one, as the `ON CONFLICT` clause of an insert into
    /// `device_state` (the same text on SQLite and PostgreSQL): it moves forward only, and a
    /// missing battery level keeps the last known one.
    public static let conflictClause = """
        ON CONFLICT (device_id) DO UPDATE SET at_ms = excluded.at_ms,
            battery = coalesce(excluded.battery, device_state.battery), accuracy = excluded.accuracy
        WHERE excluded.at_ms > device_state.at_ms
        """
}

/// A file's import written while the file is read: kept points go in as they come, and the
/// whole file is one transaction that ``finish(_:places:)`` commits and ``cancel()`` rolls back.
public protocol ImportWriting: AnyObject {
    /// Adds points kept in stream `stream` (0, 1, ..., each stream's points in the order kept),
    /// stored as `device` (by name, as ``ImportStream/device``; nil: the writer's device). A
    /// stream's points all go to one device, the one its ``ImportStream`` names.
    func add(_ points: [KeptPoint], stream: Int, device: String?) throws
    /// Joins rides of stream `stream` that are done (all their points were added) to the stored
    /// ones, with their drops by ride number, and stores `events` found in the stream: what
    /// ``finish(_:places:)`` does with a stream's extents and events, done while the file is
    /// still read (the stream's ``ImportStream`` then holds only what was not closed).
    func close(
        _ rides: [RideExtent], drops: [Int: [String: Int]], events: [TrailEvent], stream: Int, device: String?
    ) throws
    /// Stores the streams' points that were not added, what the streams formed besides (rides
    /// and segments from their extents, drops, events), `places` and `accountPlaces`, and commits.
    func finish(_ streams: [ImportStream], places: [ImportedPlace], accountPlaces: ImportedPlaces) throws
        -> ImportOutcome
    /// Rolls back: nothing of the file is stored. Does nothing once finished.
    func cancel()
}

/// The import of a store that writes nothing before the file has been read whole: it holds the
/// points added until ``finish(_:places:)``.
public final class DeferredImport: ImportWriting {
    /// Stores the whole file's streams and places, in one transaction.
    private let write: ([ImportStream], [ImportedPlace], ImportedPlaces) throws -> ImportOutcome
    private var added: [Int: [KeptPoint]] = [:]
    private var closed: [Int: (rides: [RideExtent], drops: [Int: [String: Int]], events: [TrailEvent])] = [:]

    /// The points held for `writer` (``TrackWriting/writeImport(_:places:file:replacing:)``, in
    /// the writer's unit of work).
    public convenience init(writer: any TrackWriting, file: ImportedFile?, earlier: StoredImport?) {
        self.init { try writer.writeImport($0, places: $1, accountPlaces: $2, file: file, replacing: earlier) }
    }

    /// The points held for `write`, which stores them in a transaction of its own.
    public init(_ write: @escaping ([ImportStream], [ImportedPlace], ImportedPlaces) throws -> ImportOutcome) {
        self.write = write
    }

    public func add(_ points: [KeptPoint], stream: Int, device: String?) { added[stream, default: []] += points }

    public func close(
        _ rides: [RideExtent], drops: [Int: [String: Int]], events: [TrailEvent], stream: Int, device: String?
    ) {
        closed[stream, default: ([], [:], [])].rides += rides
        closed[stream, default: ([], [:], [])].drops.merge(drops) { $0.merging($1, uniquingKeysWith: +) }
        closed[stream, default: ([], [:], [])].events += events
    }

    public func finish(_ streams: [ImportStream], places: [ImportedPlace], accountPlaces: ImportedPlaces) throws
        -> ImportOutcome
    {
        var whole = streams
        for i in whole.indices {
            whole[i].points = (added[i] ?? []) + whole[i].points
            if let done = closed[i] {
                whole[i].extents = done.rides + whole[i].extents
                whole[i].drops.merge(done.drops) { $0.merging($1, uniquingKeysWith: +) }
                whole[i].events = done.events + whole[i].events
            }
        }
        return try write(whole, places, accountPlaces)
    }

    public func cancel() {}
}

extension ImportWriting {
    /// ``finish(_:places:accountPlaces:)`` of a file that tells of no areas or places.
    public func finish(_ streams: [ImportStream], places: [ImportedPlace]) throws -> ImportOutcome {
        try finish(streams, places: places, accountPlaces: ImportedPlaces())
    }
}

extension TrackWriting {
    public func beginImport(file: ImportedFile?, replacing earlier: StoredImport?) throws -> any ImportWriting {
        DeferredImport(writer: self, file: file, earlier: earlier)
    }
}

extension StoreReading {
    /// The store's own user's earlier import of the file with this SHA-256.
    public func importedFile(sha256: String) throws -> StoredImport? { try importedFile(sha256: sha256, account: nil) }

    /// The account's earlier import of the file whose bytes have this SHA-256, if any (nil: the
    /// store's own user's).
    public func importedFile(sha256: String, account: String?) throws -> StoredImport? {
        try importedFiles(account: account)[sha256]
    }

    public func points(fromMilliseconds from: Int64, toMilliseconds to: Int64) throws -> [Fix] {
        try points(fromMilliseconds: from, toMilliseconds: to, devices: .all)
    }

    public func forEachPoint(
        fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter, _ body: (Fix) throws -> Void
    ) throws {
        for fix in try points(fromMilliseconds: from, toMilliseconds: to, devices: devices) { try body(fix) }
    }

    public func rides() throws -> [StoredRide] {
        try rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
    }

    /// The account's records in `[from, to)` (the store's own user's for nil), without plain points.
    public func records(
        fromMilliseconds from: Int64 = .min, toMilliseconds to: Int64 = .max, account: String? = nil
    ) throws -> [LocationRecord] {
        try records(fromMilliseconds: from, toMilliseconds: to, plainPoints: false, account: account)
    }
}

extension TrackWriting {
    @discardableResult
    public func write(_ points: [KeptPoint]) throws -> Int { try write(points, drops: [:]) }
}

/// A change another process committed to a store that several processes share.
public enum StoreAnnouncement: Sendable, Equatable {
    /// New (or removed) positions of an account's device.
    case positions(account: String, device: String)
    /// A grant of which `viewer` is the viewer changed (paused, expiring, revoked).
    case grant(viewer: String)
}

/// A store several processes share (PostgreSQL) announces what each of them commits, so that a
/// server process can tell its live viewers what another process stored.
public protocol AnnouncingStore: Sendable {
    /// What other processes commit from now on, for as long as the stream is consumed; after the
    /// database went away it listens again once it is back (changes meanwhile are not replayed).
    func announcements() -> AsyncStream<StoreAnnouncement>
}
