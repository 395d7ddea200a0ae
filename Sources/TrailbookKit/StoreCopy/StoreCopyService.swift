import Foundation
import GPSCore
import TrackModel

/// Why a store cannot be copied.
public enum StoreCopyError: ServiceFailure, Equatable {
    /// The destination holds something (and is not an unfinished copy of this source).
    case destinationNotEmpty(destination: String)
    /// The destination is an unfinished copy of another store.
    case otherCopy(destination: String, source: String)
    /// Source and destination are one store.
    case sameStore(String)
    /// After the copy, a table's rows differ in number.
    case countsDiffer(table: String, source: Int, destination: Int)

    public var kind: FailureKind {
        switch self {
        case .sameStore: return .badRequest
        case .destinationNotEmpty, .otherCopy: return .cannotWrite
        case .countsDiffer: return .other
        }
    }

    public var description: String {
        switch self {
        case .destinationNotEmpty(let destination):
            return "The store \(destination) already holds points, records or accounts; copy into a new, empty store."
        case .otherCopy(let destination, let source):
            return "The store \(destination) holds an unfinished copy of \(source); finish that copy, or copy into a "
                + "new, empty store."
        case .sameStore(let store): return "The source and the destination are the same store \(store)."
        case .countsDiffer(let table, let source, let destination):
            return "After the copy, the table \(table) has \(destination) rows where the source has \(source); "
                + "run the copy again to continue it."
        }
    }
}

/// `trailbook store copy`: every table of one store into another (SQLite and PostgreSQL, either
/// way), ids kept, in batches each committed on its own. An interrupted copy continues where it
/// stopped when run again: each table goes on after the destination's last key. At the end the
/// rows of every table are counted on both sides, and the photo files are copied into the
/// destination's media folder.
public struct StoreCopyService {
    public struct TableReport: Sendable, Equatable {
        public var table: String
        public var rows: Int
        /// Rows this run copied (less than `rows` when it continued an earlier one).
        public var copied: Int
    }

    public struct Report: Sendable {
        public var source: String
        public var destination: String
        public var resumed: Bool
        public var tables: [TableReport]
        public var photoFiles: Int
    }

    public let source: any StoreCopying
    public let destination: any StoreCopying
    /// The id of the account whose rows alone are copied (nil: everything).
    public let account: Int64?
    /// Rows per batch (one transaction in the destination).
    public var batch = 10_000

    public init(source: any StoreCopying, destination: any StoreCopying, account: Int64? = nil) {
        self.source = source
        self.destination = destination
        self.account = account
    }

    /// The tables copied: all, or those of one account (not share grants, codes and sessions).
    var tables: [StoreCopy.Table] {
        account == nil ? StoreCopy.tables : StoreCopy.tables.filter { StoreCopy.owner(of: $0) != .none }
    }

    /// Rows the source holds in all, for a progress bar.
    public func totalRows() throws -> Int {
        try tables.reduce(0) { $0 + (try source.copyCount($1, account: account)) }
    }

    /// Copies everything; `progress` gets the rows done so far (this run and before).
    public func copy(progress: (Int) -> Void = { _ in }) throws -> Report {
        guard source.path != destination.path else { throw StoreCopyError.sameStore(source.path) }
        var resumed = false
        switch try destination.copyMarker() {
        case .some(let marker) where marker.source == source.path && !marker.finished:
            resumed = true
        case .some(let marker) where !marker.finished:
            throw StoreCopyError.otherCopy(destination: destination.path, source: marker.source)
        default:
            guard try destination.copyEmptyDestination() else {
                throw StoreCopyError.destinationNotEmpty(destination: destination.path)
            }
            try destination.setCopyMarker(source: source.path, finished: false)
        }
        var reports: [TableReport] = []
        var done = 0
        for table in tables {
            var after = try destination.copyLastKey(table)
            var copied = 0
            done += after == nil ? 0 : try destination.copyCount(table)
            progress(done)
            while true {
                let rows = try source.copyRows(table, after: after, limit: batch, account: account)
                guard !rows.isEmpty else { break }
                try destination.copyInsert(table, rows: rows)
                copied += rows.count
                done += rows.count
                progress(done)
                after = Array(rows[rows.count - 1].prefix(table.keyCount))
            }
            reports.append(TableReport(table: table.name, rows: 0, copied: copied))
        }
        try destination.copyFinish()
        for (i, table) in tables.enumerated() {
            let (a, b) = (try source.copyCount(table, account: account), try destination.copyCount(table))
            // One account's copy (its archive) may be made while its phones post: rows added to
            // the source after their table was copied are not in it, and that is no failure.
            // What the copy holds must still all be in the source.
            guard a == b || account != nil && b < a else {
                throw StoreCopyError.countsDiffer(table: table.name, source: a, destination: b)
            }
            reports[i].rows = b
        }
        let photoFiles = try copyPhotoFiles()
        try destination.setCopyMarker(source: source.path, finished: true)
        return Report(
            source: source.path, destination: destination.path, resumed: resumed, tables: reports, photoFiles: photoFiles
        )
    }

    /// Copies the photo files the destination's rows refer to and its media folder lacks.
    func copyPhotoFiles() throws -> Int {
        guard let photos = StoreCopy.tables.first(where: { $0.name == "photo" }) else { return 0 }
        var copied = 0
        var after: [StoreCopy.Value]?
        let file = photos.columns.firstIndex { $0.name == "file" }!
        while true {
            let rows = try destination.copyRows(photos, after: after, limit: batch)
            guard let last = rows.last else { break }
            after = Array(last.prefix(photos.keyCount))
            for row in rows {
                guard case .text(let relative) = row[file] else { continue }
                let from = source.mediaDirectory + "/" + relative
                let to = destination.mediaDirectory + "/" + relative
                guard !FileManager.default.fileExists(atPath: to), FileManager.default.fileExists(atPath: from) else {
                    continue
                }
                _ = try MediaFolder(path: destination.mediaDirectory).store(from, takenMilliseconds: nil)
                copied += 1
            }
        }
        return copied
    }
}
