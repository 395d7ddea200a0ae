import Foundation
import GPSCore
import Synchronization

/// A source's events as an `AsyncThrowingStream`: the source runs on a thread of its own (its
/// reads block), and the consumer iterates with `for try await`. When the consumer stops
/// iterating (it breaks out, or its task is cancelled, e.g. by a graceful shutdown), the source
/// is asked to stop and its thread ends within the source's polling interval (200 ms).
///
/// The stream buffers without bound: a consumer that falls behind (a busy store) loses nothing,
/// and a receiver sends a few hundred bytes a second.
public enum SourceStream {
    /// The stop request shared by the consumer's termination handler and the source's thread.
    private final class StopRequest: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// Starts `source` on a new thread and returns its events; the stream finishes when the
    /// source ends (a replayed file) and throws what the source threw.
    public static func events(of source: some FixSource) -> AsyncThrowingStream<SourceEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<SourceEvent, any Error>.makeStream(
            bufferingPolicy: .unbounded)
        let stop = StopRequest()
        continuation.onTermination = { _ in stop.flag.store(true, ordering: .relaxed) }
        Blocking.start("trailbook source") {
            var running = source
            do {
                try running.run(shouldStop: { stop.flag.load(ordering: .relaxed) }) { event in
                    continuation.yield(event)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }
}

extension SourceStream {
    /// What a live consumer (`watch`, `record`) takes in, one at a time, in one task.
    public enum Input: Sendable {
        case event(SourceEvent)
        /// The clock ticked: time to look at the pause switch, write a heartbeat, check a deadline.
        case tick
        /// The source ended (a replayed file), or failed with the error.
        case ended((any Error)?)
    }

    /// The source's events and a tick every `tick`, merged into one stream that a single task
    /// consumes, so the consumer's state needs no lock. Ending the iteration stops the ticks and
    /// the source. `.ended` is the last element.
    public static func inputs(of source: some FixSource, tick: Duration) -> AsyncStream<Input> {
        let (stream, continuation) = AsyncStream<Input>.makeStream(bufferingPolicy: .unbounded)
        let pump = Task {
            do {
                for try await event in events(of: source) { continuation.yield(.event(event)) }
                continuation.yield(.ended(nil))
            } catch {
                continuation.yield(.ended(error))
            }
            continuation.finish()
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                continuation.yield(.tick)
            }
        }
        continuation.onTermination = { _ in
            pump.cancel()
            ticker.cancel()
        }
        return stream
    }
}
