import Foundation
import GPSCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line progress bar on standard error, for files of 4 MB or more (or 2000 points or
/// more) and only when standard error is a terminal (never in pipes, logs or CI). Redrawn at
/// most five times a second. Sendable: a replayed file reports its progress from the thread
/// that reads it.
public final class ProgressBar: Sendable {
    private let label: String
    private let total: Int
    /// What is counted ("points", "days"); nil: bytes, said in MB.
    private let unit: String?
    private let enabled: Bool
    /// Where it draws: the standard error of the command that made it, from whichever thread.
    private let console = Console.current
    private let state = Mutex<(lastDraw: ContinuousClock.Instant, drawn: Bool)>((.now - .seconds(1), false))

    public init(label: String, totalBytes: Int) {
        self.label = label
        total = totalBytes
        unit = nil
        enabled = totalBytes >= 4 << 20 && Console.current.errorIsTerminal
    }

    public init(label: String, totalPoints: Int) {
        self.label = label
        total = totalPoints
        unit = "points"
        enabled = totalPoints >= 2000 && Console.current.errorIsTerminal
    }

    /// `total` things said as `unit` ("days"), drawn on a terminal whatever their number.
    public init(label: String, total: Int, unit: String) {
        self.label = label
        self.total = total
        self.unit = unit
        enabled = total > 0 && Console.current.errorIsTerminal
    }

    /// Bytes or points done so far.
    public func update(_ bytes: Int) {
        guard enabled else { return }
        let due = state.withLock { state in
            guard ContinuousClock.now - state.lastDraw >= .milliseconds(200) else { return false }
            state = (.now, true)
            return true
        }
        guard due else { return }
        let fraction = Double(min(bytes, total)) / Double(max(total, 1))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let text =
            unit.map { String(format: "\r%@ [%@] %3d%% %d/%d %@", label, bar, Int(fraction * 100), bytes, total, $0) }
            ?? String(
                format: "\r%@ [%@] %3d%% %.1f/%.1f MB", label, bar, Int(fraction * 100), Double(bytes) / 1e6,
                Double(total) / 1e6)
        console.writeError(text)
    }

    public func finish() {
        guard state.withLock({ $0.drawn }) else { return }
        console.writeError("\r\u{1B}[K")
    }
}
