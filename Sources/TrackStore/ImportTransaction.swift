import Foundation
import GPSCore
internal import GRDB
internal import GRDBSQLite

/// One file's import inside its write transaction: the earlier import it replaces removed and
/// the file noted first, then its points a batch at a time, then what its streams formed
/// besides (rides, segments, drops, events), its places, and the file's counts.
struct ImportTransaction {
    let db: Database
    let device: DeviceID
    let file: ImportedFile?
    private var tally = ImportTally()
    var outcome: ImportOutcome { tally.outcome }
    private var importID: Int64?
    private let insert: Statement
    /// The devices of streams that name one (``ImportStream/device``), by name.
    private var named: [String: DeviceID] = [:]
    /// Where the claims of rides and segments know nothing is stored.
    private var gaps = KnownGaps()
    /// Events stored by ``close(_:drops:events:stream:device:)``.
    private var closedEvents = 0

    /// Begins: removes what `earlier` stored and notes the file. When another process noted the
    /// same file meanwhile, ``outcome`` says so and nothing is to be written.
    init(_ db: Database, device: DeviceID, file: ImportedFile?, replacing earlier: StoredImport?) throws {
        (self.db, self.device, self.file) = (db, device, file)
        insert = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO point (\(PointKey.insertColumns), import_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        if let earlier { tally.outcome.replacedPoints = try TrackWriter.deletePoints(db, of: earlier) }
        guard let file else { return }
        if let earlier {
            importID = earlier.id
            return
        }
        // The file is noted in the diary of the device's account.
        let owner = try Int64.fetchOne(
            db, sql: "SELECT user_id FROM device WHERE id = ?", arguments: [device.rawValue])!
        if let other = try ImportRow.filter(Column("user_id") == owner && Column("sha256") == file.sha256).fetchOne(db)
        {
            // Checked again inside the write: writes are serialised, so this is race-free.
            tally.outcome.importedMeanwhile = true
            tally.outcome.stored = other.stored
        } else {
            try ImportRow(
                userId: owner, sha256: file.sha256, name: file.name, bytes: file.bytes, importedMs: UTCTimestamp.now(),
                points: 0
            ).insert(db)
            importID = db.lastInsertedRowID
        }
    }

    /// The device of a stream: the one named (made in the account of the import's device when it
    /// has none of that name, inside this transaction), else the import's.
    mutating func device(named name: String?) throws -> DeviceID {
        guard let name else { return device }
        if let id = named[name] { return id }
        let owner = try Int64.fetchOne(
            db, sql: "SELECT user_id FROM device WHERE id = ?", arguments: [device.rawValue])!
        let id = try SQLiteUnit.device(db, named: name, user: owner)
        named[name] = id
        return id
    }

    /// Stores points of stream `stream` as `device` (a point whose millisecond the device has is
    /// skipped): with one statement per 128 of them when the store has no point of the device in
    /// their time range, else row by row.
    mutating func insert(_ points: ArraySlice<KeptPoint>, stream: Int, device: DeviceID) throws {
        if let stored = try TrackWriter.insertIntoEmptyRange(db, points, device: device, importID: importID) {
            // Each ride with a point that has a key stored some: how many, when every one went
            // in (else two shared a millisecond, and which went in is not known).
            guard let r = stored.range else { return }
            var rides: [Int: Int] = [:]
            for p in points where PointKey.holds(p.milliseconds) { rides[p.ride, default: 0] += 1 }
            if stored.points != stored.keyed { rides = rides.mapValues { _ in 0 } }
            tally.stored(count: stored.points, from: r.start, to: r.end, rides: rides, stream: stream)
            return
        }
        let statement = insert.sqliteStatement
        for p in points {
            guard PointKey.holds(p.milliseconds) else { continue }  // before 1830 or after 2109: no key
            sqlite3_reset(statement)
            p.bind(to: statement, device: device)
            if let importID {
                sqlite3_bind_int64(statement, 10, importID)
            } else {
                sqlite3_bind_null(statement, 10)
            }
            let code = sqlite3_step(statement)
            guard code == SQLITE_DONE else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: insert.sql)
            }
            guard sqlite3_changes(db.sqliteConnection) > 0 else { continue }
            tally.stored(at: p.milliseconds, ride: p.ride, stream: stream)
        }
    }

    /// Joins the rides and segments of `streams` (the file's streams `first`, `first + 1`, ...,
    /// of `devices`) to the stored ones, with their drops, and counts the rows they touched.
    private mutating func join(_ streams: [ImportStream], devices: [DeviceID], from first: Int) throws {
        let db = db
        var gaps = self.gaps
        defer { self.gaps = gaps }
        let touched = try tally.join(
            streams, devices: devices, from: first,
            claimRide: { try TrackWriter.claim(db, device: $0, start: $1, end: $2, gaps: &gaps) },
            claimSegment: {
                try TrackWriter.claim(db, device: $0, segmentOf: $1, start: $2, end: $3, points: $4, gaps: &gaps)
            },
            addDrops: { ride, reasons in
                for (reason, count) in reasons {
                    try TrackWriter.addDrops(db, ride: ride, reason: reason, count: count)
                }
            })
        for (device, rows) in touched {
            try TrackWriter.recount(db, device: device, segments: rows.segments, rides: rows.rides)
        }
    }

    /// Joins rides of stream `stream` that are done (their points are in) to the stored ones,
    /// and stores events found in it.
    mutating func close(
        _ rides: [RideExtent], drops: [Int: [String: Int]], events: [TrailEvent], stream: Int, device name: String?
    ) throws {
        let device = try device(named: name)
        try join([ImportStream(points: [], extents: rides, drops: drops)], devices: [device], from: stream)
        if !events.isEmpty { closedEvents += try SQLiteUnit.insertEvents(db, events, device: device.rawValue) }
    }

    /// Stores the streams' rides and segments (merged with the stored ones they overlap), their
    /// drops (once: with the stream that stored points of the ride), their events and `places`,
    /// and the file's counts (or forgets the file when it stored nothing). The streams' points
    /// not inserted yet go in first.
    mutating func finish(_ streams: [ImportStream], places: [ImportedPlace], accountPlaces: ImportedPlaces) throws
        -> ImportOutcome
    {
        var devices: [DeviceID] = []
        for (i, stream) in streams.enumerated() {
            devices.append(try device(named: stream.device))
            if !stream.points.isEmpty { try insert(stream.points[...], stream: i, device: devices[i]) }
        }
        try join(streams, devices: devices, from: 0)
        var events = closedEvents
        for device in Set(devices) {
            let found = zip(streams, devices).filter { $0.1 == device }.flatMap(\.0.events)
            if !found.isEmpty { events += try SQLiteUnit.insertEvents(db, found, device: device.rawValue) }
        }
        let close = tally.close(
            places: try TrackWriter.insertPlaces(db, places, device: self.device.rawValue), events: events)
        (tally.outcome.areas, tally.outcome.visitedPlaces) = try TrackWriter.insertAccountPlaces(
            db, accountPlaces, device: self.device.rawValue)
        if let importID {
            switch close {
            case .forget:
                try db.execute(sql: "DELETE FROM import WHERE id = ?", arguments: [importID])
            case .note(let points, let start, let end):
                let now = UTCTimestamp.now()
                try db.execute(
                    sql:
                        "UPDATE import SET points = ?, start_ms = ?, end_ms = ?, imported_ms = ?, name = ? WHERE id = ?",
                    arguments: [points, start, end, now, file?.name, importID])
                tally.outcome.stored = StoredImport(
                    id: importID, name: file?.name ?? "", importedMilliseconds: now, points: points,
                    startMilliseconds: start, endMilliseconds: end)
            }
        }
        return outcome
    }
}

/// An import written on a thread of its own while its file is read: the thread holds the write
/// transaction (other writers wait, readers do not) and inserts each batch of points as it is
/// added; ``finish(_:places:)`` hands it the rest and waits for the commit, ``cancel()`` makes it
/// roll back. A failure is thrown by the next call. ``add(_:stream:)`` waits while
/// ``depth`` batches are not stored yet, so what waits in memory stays bounded.
final class ConcurrentImport: ImportWriting, Sendable {
    private enum Work {
        case points([KeptPoint], stream: Int, device: String?)
        case close([RideExtent], drops: [Int: [String: Int]], events: [TrailEvent], stream: Int, device: String?)
        case finish([ImportStream], [ImportedPlace], ImportedPlaces)
        case cancel
    }

    private struct Cancelled: Error {}

    /// Batches of points waiting at most.
    static let depth = 4

    private struct State {
        var work: [Work] = []
        var result: Result<ImportOutcome, any Error>?
    }

    private let state = Guarded(State())

    init(pool: DatabasePool, device: DeviceID, file: ImportedFile?, earlier: StoredImport?) {
        let state = state
        /// The next work (the writing thread), waiting for it.
        @Sendable func next() -> Work {
            state.wait(until: { !$0.work.isEmpty }) { $0.work.removeFirst() }
        }
        Blocking.start("trailbook import writer") {
            let outcome = Result {
                try pool.write { db -> ImportOutcome in
                    var transaction = try ImportTransaction(db, device: device, file: file, replacing: earlier)
                    while true {
                        switch next() {
                        case .points(let points, let stream, let name):
                            guard !transaction.outcome.importedMeanwhile else { continue }
                            try transaction.insert(points[...], stream: stream, device: transaction.device(named: name))
                        case .close(let rides, let drops, let events, let stream, let name):
                            guard !transaction.outcome.importedMeanwhile else { continue }
                            try transaction.close(rides, drops: drops, events: events, stream: stream, device: name)
                        case .finish(let streams, let places, let accountPlaces):
                            guard !transaction.outcome.importedMeanwhile else { return transaction.outcome }
                            return try transaction.finish(streams, places: places, accountPlaces: accountPlaces)
                        case .cancel:
                            throw Cancelled()
                        }
                    }
                }
            }
            state.withLock {
                $0.result = outcome
                $0.work.removeAll()
            }
        }
    }

    func add(_ points: [KeptPoint], stream: Int, device: String?) throws {
        try state.wait(until: { $0.result != nil || $0.work.count < Self.depth }) {
            if case .failure(let error) = $0.result { throw error }
            guard $0.result == nil else { return }
            $0.work.append(.points(points, stream: stream, device: device))
        }
    }

    func close(
        _ rides: [RideExtent], drops: [Int: [String: Int]], events: [TrailEvent], stream: Int, device: String?
    ) throws {
        try state.wait(until: { $0.result != nil || $0.work.count < Self.depth }) {
            if case .failure(let error) = $0.result { throw error }
            guard $0.result == nil else { return }
            $0.work.append(.close(rides, drops: drops, events: events, stream: stream, device: device))
        }
    }

    func finish(_ streams: [ImportStream], places: [ImportedPlace], accountPlaces: ImportedPlaces) throws
        -> ImportOutcome
    {
        state.withLock { $0.work.append(.finish(streams, places, accountPlaces)) }
        return try wait().get()
    }

    func cancel() {
        state.withLock { $0.work = [.cancel] }  // the batches still waiting are not stored first
        _ = wait()
    }

    private func wait() -> Result<ImportOutcome, any Error> {
        state.wait(until: { $0.result != nil }) { $0.result! }
    }
}
