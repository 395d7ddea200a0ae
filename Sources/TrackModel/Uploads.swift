import Foundation
import GPSCore

/// What was sent to a server (`record --server`, `trailbook push`): per device and server, the
/// time of the newest point the server acknowledged. A device's points after it are the ones
/// still to send, in time order.
public protocol UploadReading {
    /// The time (ms since 1970) of the newest point of `device` that `server` acknowledged; nil
    /// when none was.
    func uploadCursor(device: DeviceID, server: String) throws -> Int64?
    /// Up to `limit` points of `device` after `milliseconds` (from the first when nil), in time
    /// order.
    func points(device: DeviceID, after milliseconds: Int64?, limit: Int) throws -> [Fix]
    /// How many points of `device` there are after `milliseconds` (all when nil).
    func pointCount(device: DeviceID, after milliseconds: Int64?) throws -> Int
}

/// What a write unit changes of upload cursors (``UploadReading`` is what any unit reads).
public protocol UploadStoring: UploadReading {
    /// Records that `server` has `device`'s points up to `milliseconds`. The cursor only moves
    /// forward: an older time leaves it where it is.
    func setUploadCursor(device: DeviceID, server: String, milliseconds: Int64) throws
}
