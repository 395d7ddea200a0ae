import ArgumentParser
import GPSCore
import GPSDevices
import Logging
import NMEA
import ServiceLifecycle
import TrailbookKit

#if canImport(Glibc)
    import Glibc
#endif

/// `trailbook watch`: prints fixes as they arrive, like cgps or gpspipe.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print fixes live from a receiver, gpsd or a replayed log.",
        discussion: """
            Sources: --device PATH reads NMEA from a serial receiver (raw 8N1; --baud auto probes \
            9600, 4800, 38400, 115200, 57600, 19200 and keeps the rate where checksummed sentences \
            arrive); --gpsd [HOST[:PORT]] reads from gpsd (default localhost:2947), which also \
            handles receivers that speak binary protocols; --replay FILE plays a log, as fast as \
            possible or with --realtime paced by its timestamps (--speed to scale). Without a \
            source, the only receiver plugged in is used, else gpsd on localhost.

            A receiver that is unplugged and plugged back in, or a gpsd that restarts, is picked \
            up again without restarting watch; the gap is reported on standard error. \
            --format csv and jsonl print the columns of trailbook decode. Stops after --count \
            fixes, --duration seconds, or on Ctrl-C / SIGTERM, and exits 0.
            """
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var receiver: ReceiverOptions

    @Option(help: ArgumentHelp("Replay an NMEA log as if it were live.", valueName: "file"))
    var replay: String?

    @Flag(help: "With --replay: wait between fixes as long as the log says.")
    var realtime = false

    @Option(help: "With --replay --realtime: speed factor (2 plays twice as fast).")
    var speed = 1.0

    @Option(help: "Output: text (a live line on a terminal), csv or jsonl.")
    var format: FixFormat = .text

    @Option(help: "Stop after this many fixes.")
    var count: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    func validate() throws {
        if replay != nil && (receiver.device != nil || receiver.gpsd != nil) {
            throw ValidationError("Give one source: --device, --gpsd or --replay.")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be a positive number of seconds.") }
        if speed <= 0 { throw ValidationError("--speed must be positive.") }
    }

    func run() async throws {
        let logger = global.makeLogger()
        let service = WatchService(
            source: try makeSource(logger: logger), format: format, live: Console.current.outputIsTerminal, count: count,
            duration: duration.map { .milliseconds(Int($0 * 1000)) })
        try await ServiceRunner.run(service, logger: logger)
    }

    private func makeSource(logger: Logger) throws -> any FixSource {
        if let replay {
            var source = ReplaySource(path: replay, realtime: realtime, speed: speed)
            source.requireNMEA = true
            return source
        }
        if let (host, port) = receiver.gpsdAddress {
            return GPSDSource(host: host, port: port, logger: logger)
        }
        let baudSetting = receiver.baudSetting
        if let device = receiver.device {
            return SerialSource(path: device, baud: baudSetting, logger: logger)
        }
        let candidates = DeviceDiscovery.candidatePaths()
        if candidates.count > 1 {
            throw CommandFailure(
                message: "Several receivers are plugged in (\(candidates.joined(separator: ", "))); "
                    + "choose one with --device.",
                code: .usage)
        }
        if let only = candidates.first {
            return SerialSource(path: only, baud: baudSetting, logger: logger)
        }
        return GPSDSource(logger: logger)
    }

}

extension FixFormat: ExpressibleByArgument {}
