/// What a source reports while it runs.
public enum SourceEvent: Equatable, Sendable {
    /// The source is reading (a device opened at a baud rate, gpsd connected); a description for logs.
    case connected(String)
    /// A decoded fix.
    case fix(Fix)
    /// The source lost its device or daemon; the current segment ends here. The reason is a sentence.
    case disconnected(String)
}

/// Anything that produces fixes: a serial receiver, gpsd, a replayed log.
///
/// `run` blocks, calling `handle` for each event, until `shouldStop` returns true (sources check
/// it at least every 200 ms) or the source ends (a replayed file). It
/// throws only for failures the caller must report (a device that does not exist at start,
/// permission denied); disconnects later on are events, followed by reconnection attempts.
/// Sendable, so a source can be handed to the thread that runs it (`SourceStream`): the
/// blocking reads stay on that thread, and consumers see an `AsyncSequence` of events.
public protocol FixSource: Sendable {
    mutating func run(shouldStop: () -> Bool, handle: (SourceEvent) throws -> Void) throws
}
