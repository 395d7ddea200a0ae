import Synchronization
import TrackModel

/// Phones' devices by the hash of their token, so that a phone's request reads no row for its
/// token after the first: on PostgreSQL that read is a round trip of its own for every point.
///
/// Sound because a token names one device for good (a device's token is set when it is made;
/// a new token is a new device), and what can end it, a revocation or the account's removal,
/// is checked again where it matters: a phone's batch for a device that is revoked or gone is
/// refused by its own insert (``DeviceRevoked``), which forgets the device here. A revocation
/// through this store forgets its devices at once; one through another process is seen by the
/// next batch.
final class PhoneDeviceCache: Sendable {
    typealias Entry = (account: String, device: DeviceID, name: String)
    private let entries = Mutex<[String: Entry]>([:])
    /// Past this many tokens, the cache starts again empty.
    static let limit = 100_000

    func entry(tokenHash: String) -> Entry? { entries.withLock { $0[tokenHash] } }

    func keep(_ entry: Entry, tokenHash: String) {
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll() }
            entries[tokenHash] = entry
        }
    }

    func forget(_ device: DeviceID) { entries.withLock { $0 = $0.filter { $0.value.device != device } } }

    /// Forgets the devices of `account` (all of them, or the one named `device`).
    func forget(account: String, device: String? = nil) {
        entries.withLock { entries in
            entries = entries.filter { entry in
                entry.value.account != account || (device != nil && entry.value.name != device)
            }
        }
    }
}

/// Each device's newest segment as this process's last batch for it left it, committed: a
/// phone's next point is placed from it in the batch's one statement (``PostgresWriter/insertLocked(_:_:placing:)``),
/// which checks under the device's lock that the segments around the point are this one and
/// none after; when they are not (another process wrote, a late point), the statement places
/// nothing and the batch goes the usual way. So a wrong or old entry costs nothing but that.
final class SegmentHints: Sendable {
    private let spans = Mutex<[DeviceID: PointPlacement.Span]>([:])
    /// Past this many devices, the hints start again empty.
    static let limit = 100_000

    func span(of device: DeviceID) -> PointPlacement.Span? { spans.withLock { $0[device] } }

    func keep(_ span: PointPlacement.Span?, of device: DeviceID) {
        spans.withLock { spans in
            if spans.count >= Self.limit { spans.removeAll() }
            spans[device] = span
        }
    }
}
