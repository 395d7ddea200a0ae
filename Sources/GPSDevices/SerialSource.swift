import GPSCore
import Logging
import NMEA

/// NMEA from a serial receiver (`/dev/ttyUSB*`, `/dev/ttyACM*`, a pty), surviving unplug and replug.
///
/// Opening: raw 8N1 at a fixed rate or, with `.auto`, the first of ``SerialPort/probeOrder``
/// at which checksummed sentences arrive (USB-ACM receivers ignore the rate and answer at
/// once). A device that is missing or forbidden at start is an error; one that disappears
/// later (EOF, EIO, hang-up, node removed) is a ``SourceEvent/disconnected(_:)`` event,
/// followed by attempts to reopen the same path with a backoff of 0.5 s doubling to 4 s.
public struct SerialSource: FixSource {
    /// A fixed rate or automatic detection.
    public enum Baud: Equatable, Sendable {
        case fixed(Int)
        case auto
    }

    public let path: String
    public let baud: Baud
    /// Seconds to listen at each rate while probing.
    public var probeWindow: Double
    /// Longest wait between reconnection attempts, seconds.
    public var maximumBackoff = 4.0
    /// Quiet time after which the open epoch is reported without waiting for the next, seconds.
    public var flushAfterIdle = 1.5
    private let logger: Logger

    public init(path: String, baud: Baud = .auto, probeWindow: Double = 1.5, logger: Logger) {
        self.path = path
        self.baud = baud
        self.probeWindow = probeWindow
        self.logger = logger
    }

    public mutating func run(shouldStop: () -> Bool, handle: (SourceEvent) throws -> Void) throws {
        var connectedOnce = false
        var reconnection = Reconnection(maximumDelay: maximumBackoff)
        var lastGoodBaud: Int?
        while !shouldStop() {
            let port: SerialPort
            let probe: BaudProbe.Result
            do {
                let rates = rates(preferring: lastGoodBaud)
                port = try SerialPort(path: path, baud: rates[0])
                guard let found = try BaudProbe.detect(port, rates: rates, window: window, shouldStop: shouldStop)
                else {
                    if shouldStop() { return }
                    throw DeviceError.noNMEA(path, bauds: rates, seconds: window)
                }
                probe = found
            } catch let error as DeviceError {
                if !connectedOnce { throw error }
                reconnection.failed(
                    announce: {
                        logger.info(
                            "waiting for the receiver to come back",
                            metadata: ["device": "\(path)", "reason": "\(error)"])
                    }, shouldStop: shouldStop)
                continue
            }
            connectedOnce = true
            reconnection.succeeded()
            lastGoodBaud = probe.baud
            logger.info(
                "receiver connected",
                metadata: [
                    "device": "\(path)", "baud": "\(probe.baud)", "talkers": "\(probe.talkers.joined(separator: ","))",
                ])
            try handle(.connected("\(path) at \(probe.baud) baud"))
            let reason = try read(port, startingWith: probe.bytes, shouldStop: shouldStop, handle: handle)
            guard let reason else { return }
            logger.info("receiver disconnected", metadata: ["device": "\(path)", "reason": "\(reason)"])
            try handle(.disconnected("\(path): \(reason)"))
        }
    }

    private var window: Double {
        if case .fixed = baud { return Swift.max(probeWindow, 3) }
        return probeWindow
    }

    private func rates(preferring last: Int?) -> [Int] {
        switch baud {
        case .fixed(let rate): return [rate]
        case .auto:
            guard let last else { return SerialPort.probeOrder }
            return [last] + SerialPort.probeOrder.filter { $0 != last }
        }
    }

    /// Decodes until the device goes away (returns why) or the caller stops (returns nil).
    private func read(
        _ port: SerialPort, startingWith first: [UInt8], shouldStop: () -> Bool, handle: (SourceEvent) throws -> Void
    ) throws -> String? {
        let decoder = NMEADecoder(fallbackDate: LiveDate.today(), holdLimit: LiveDate.epochsToWait)
        func emit(_ fix: Fix) throws { try handle(.fix(fix)) }
        try first.withUnsafeBytes { try decoder.feed($0, emit) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        var lastData = Posix.monotonicSeconds()
        var flushed = false
        while !shouldStop() {
            switch port.read(into: buffer, milliseconds: 200) {
            case .data(let n):
                lastData = Posix.monotonicSeconds()
                flushed = false
                try decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), emit)
            case .timeout:
                let idle = Posix.monotonicSeconds() - lastData
                if idle > flushAfterIdle && !flushed {
                    try decoder.flushOpenEpoch(emit)
                    flushed = true
                }
                if idle > 1 && !Posix.exists(path) {
                    try decoder.flushOpenEpoch(emit)
                    return "the device node disappeared"
                }
            case .gone(let reason):
                try decoder.flushOpenEpoch(emit)
                return reason
            }
        }
        try decoder.flushOpenEpoch(emit)
        return nil
    }
}
