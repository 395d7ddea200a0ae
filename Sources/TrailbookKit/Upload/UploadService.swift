import Foundation
import Logging
import ServiceLifecycle
import TrackModel

/// `record --server`: beside the recorder, sends the device's stored points to the server as
/// they are committed (once a second), and what could not be sent (no network, the server down,
/// an earlier run) as soon as it answers again, retrying every 1, 2, 4 ... up to 15 seconds. At a
/// stop it tries once more, for at most ``finalPass``, after the recorder's last commit; what is
/// left is sent by the next run or `trailbook push`.
public struct UploadService: Service {
    let upload: OverlandUpload
    let device: DeviceID
    let deviceName: String
    let logger: Logger

    public init(upload: OverlandUpload, device: DeviceID, deviceName: String, logger: Logger) {
        self.upload = upload
        self.device = device
        self.deviceName = deviceName
        self.logger = logger
    }

    /// The longest wait between tries while the server does not answer.
    public static let longestRetry = Duration.seconds(15)
    /// How long the try at a stop may take.
    public static let finalPass = Duration.seconds(10)

    public func run() async throws {
        var delay = Duration.seconds(1)
        var failing: UploadError?
        while !Task.isShuttingDownGracefully {
            do {
                let sent = try await upload.sendPending(device: device, deviceName: deviceName)
                if failing != nil {
                    logger.info(
                        "the server answers again; the points that waited are sent", metadata: ["points": "\(sent)"])
                    failing = nil
                } else if sent > 0 {
                    logger.debug("sent to the server", metadata: ["points": "\(sent)"])
                }
                delay = .seconds(1)
            } catch let error as UploadError {
                if failing != error {
                    let waiting = (try? await upload.pendingCount(device: device)) ?? 0
                    let message: Logger.Message = "\(error.description)"
                    if error.isTransient {
                        logger.warning(message, metadata: ["waiting": "\(waiting)"])
                    } else {
                        logger.error(message, metadata: ["waiting": "\(waiting)"])
                    }
                    failing = error
                }
                delay = min(delay * 2, Self.longestRetry)
            } catch {
                // The store busy with another writer: the cursor is written next time.
                logger.debug("cannot read or write the upload cursor: \(error)")
            }
            let wait = delay
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
        }
        await sendLast()
    }

    /// At a stop: the points of the last commit, if the server answers within ``finalPass``.
    private func sendLast() async {
        let upload = self.upload
        let device = self.device
        let deviceName = self.deviceName
        let result: Result<Int, any Error>? = await withTaskGroup(of: Result<Int, any Error>?.self) { group in
            group.addTask {
                do {
                    return .success(try await upload.sendPending(device: device, deviceName: deviceName))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: Self.finalPass)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let waiting = (try? await upload.pendingCount(device: device)) ?? 0
        switch result {
        case .success where waiting == 0:
            logger.info("every point is on the server")
        default:
            var metadata: Logger.Metadata = ["waiting": "\(waiting)"]
            if case .failure(let error) = result { metadata["reason"] = "\(error)" }
            logger.warning(
                "points wait to be sent; trailbook push, or the next trailbook record --server, sends them",
                metadata: metadata)
        }
    }
}
