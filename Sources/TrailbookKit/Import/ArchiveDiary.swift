import Foundation
import GPSCore
import TrackModel

/// What `import` of an account archive brings besides its rides and records (which come as
/// Trailbook's own GPX): its records' photos, attached to the records the import stored (the same
/// moment and place), and its days' written summaries, where the account has none for the day.
/// All of it in one write unit: the photos attached and the summaries written, or none.
public enum ArchiveDiary {
    public struct Outcome: Encodable, Equatable, Sendable {
        /// Photos attached (not those the record had already).
        public var photos = 0
        /// Photos whose record the import did not store, or whose file the archive lacks.
        public var photosLeftOut = 0
        /// Day summaries written, and those left as the account had them (a text of its own).
        public var summaries = 0
        public var summariesKept = 0

        enum CodingKeys: String, CodingKey {
            case photos
            case photosLeftOut = "photos_left_out"
            case summaries = "day_summaries"
            case summariesKept = "day_summaries_kept"
        }

        /// "3 photos attached, 2 day summaries written (1 kept as it was)".
        public var line: String {
            var text = "\(counted(photos, "photo")) attached"
            if photosLeftOut > 0 { text += " (\(photosLeftOut) without their record or file)" }
            text += ", \(counted(summaries, "day summary", "day summaries")) written"
            if summariesKept > 0 { text += " (\(summariesKept) kept as the account had it)" }
            return text
        }
    }

    /// Brings the photos and summaries of `archive` (an archive's store: every account in it)
    /// into `account` of `target`.
    public static func bring(from archive: any StoreCopying, to target: any TrackStoring, account: String?)
        async throws -> Outcome
    {
        // What the archive holds: its records with photos, and its days' summaries.
        let records = try await archive.read { tx in
            try tx.accounts().flatMap {
                try tx.records(fromMilliseconds: .min, toMilliseconds: .max, plainPoints: false, account: $0.name)
            }.filter { !$0.photos.isEmpty }
        }
        var summaries: [(CivilDate, String)] = []
        if let table = StoreCopy.tables.first(where: { $0.name == "day_summary" }),
            let day = table.columns.firstIndex(where: { $0.name == "day" }),
            let text = table.columns.firstIndex(where: { $0.name == "text" })
        {
            var after: [StoreCopy.Value]?
            while true {
                let rows = try archive.copyRows(table, after: after, limit: 1000)
                guard let last = rows.last else { break }
                after = Array(last.prefix(table.keyCount))
                for row in rows {
                    guard case .text(let d) = row[day], let date = CivilDate(iso: d), case .text(let t) = row[text],
                        !t.isEmpty
                    else { continue }
                    summaries.append((date, t))
                }
            }
        }
        let told = summaries
        var outcome = Outcome()
        guard !records.isEmpty || !summaries.isEmpty else { return outcome }
        // The files copied for it, to remove should the unit fail.
        let copied = Guarded([Photo]())
        do {
            outcome = try await target.write { tx in
                var outcome = Outcome()
                for record in records {
                    // The record the import stored from the archive's: the same second, within a metre.
                    let near = try tx.records(
                        fromMilliseconds: record.milliseconds - 1000, toMilliseconds: record.milliseconds + 1000,
                        plainPoints: false, account: account
                    ).filter { Geodesy.haversineDistance($0.coordinate, record.coordinate) <= 1 }
                    guard
                        let mine = near.min(by: {
                            abs($0.milliseconds - record.milliseconds) < abs($1.milliseconds - record.milliseconds)
                        }), let id = mine.id
                    else {
                        outcome.photosLeftOut += record.photos.count
                        continue
                    }
                    var photos: [Photo] = []
                    for photo in record.photos where !mine.photos.contains(where: { $0.sha256 == photo.sha256 }) {
                        let file = archive.mediaDirectory + "/" + photo.file
                        guard FileManager.default.fileExists(atPath: file) else {
                            outcome.photosLeftOut += 1
                            continue
                        }
                        var copy = try tx.storePhotoFile(file, takenMilliseconds: photo.takenMilliseconds)
                        copy.name = photo.name
                        copied.withLock { $0.append(copy) }
                        photos.append(copy)
                    }
                    if !photos.isEmpty, try tx.attachPhotos(photos, to: id, account: account) {
                        outcome.photos += photos.count
                    }
                }
                for (day, text) in told {
                    if let own = try tx.daySummary(day, account: account), !own.isEmpty {
                        if own != text { outcome.summariesKept += 1 }
                        continue
                    }
                    if try tx.setDaySummary(day, text: text, account: account) { outcome.summaries += 1 }
                }
                return outcome
            }
        } catch {
            // Nothing attached: the files copied for it go too.
            let files = copied.peek { $0 }
            _ = try? await target.write { $0.discardUnattached(files) }
            throw error
        }
        return outcome
    }
}
