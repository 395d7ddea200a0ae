import GPSCore
import GPSDevices
import ServiceLifecycle

/// `watch` as a service: prints the source's events until the count or the duration is reached,
/// the source ends, or a graceful shutdown (SIGINT, SIGTERM) comes.
public struct WatchService: Service {
    let source: any FixSource
    let format: FixFormat
    let live: Bool
    let count: Int?
    let duration: Duration?

    public init(source: any FixSource, format: FixFormat, live: Bool, count: Int?, duration: Duration?) {
        self.source = source
        self.format = format
        self.live = live
        self.count = count
        self.duration = duration
    }

    public func run() async throws {
        var printer = FixPrinter(format: format, live: live)
        let deadline = duration.map { ContinuousClock.now + $0 }
        var fixes = 0
        // Ticks only matter for --duration: a fifth of a second is close enough to it.
        loop: for await input in SourceStream.inputs(of: source, tick: .milliseconds(200)).cancelOnGracefulShutdown() {
            if let deadline, ContinuousClock.now >= deadline { break }
            switch input {
            case .tick: continue
            case .event(.fix(let fix)):
                fixes += 1
                try printer.print(fix)
                if let count, fixes >= count { break loop }
            case .event(.connected(let what)): try printer.note("connected: \(what)")
            case .event(.disconnected(let why)): try printer.note("disconnected: \(why)")
            case .ended(let failure):
                if let failure { throw failure }
                break loop
            }
        }
        try printer.finish()
    }
}
