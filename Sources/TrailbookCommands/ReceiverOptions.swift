import ArgumentParser
import GPSDevices

/// `--device PATH [--baud N|auto]` and `--gpsd [HOST[:PORT]]`, shared by `watch` and `record`.
struct ReceiverOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Serial device to read (e.g. /dev/ttyUSB0 or /dev/serial/by-id/...).", valueName: "path"))
    var device: String?

    @Option(help: "Baud rate for --device: 4800, 9600, 19200, 38400, 57600, 115200, or auto.")
    var baud = "auto"

    @Option(
        help: ArgumentHelp("Read from gpsd at HOST[:PORT] (--gpsd alone: localhost:2947).", valueName: "host[:port]"))
    var gpsd: String?

    func validate() throws {
        if device != nil && gpsd != nil { throw ValidationError("Give one source: --device or --gpsd, not both.") }
        if baud != "auto" && Int(baud).flatMap({ SerialPort.probeOrder.contains($0) ? $0 : nil }) == nil {
            throw ValidationError("--baud takes 4800, 9600, 19200, 38400, 57600, 115200 or auto; got '\(baud)'.")
        }
    }

    /// The `--baud` setting.
    var baudSetting: SerialSource.Baud { Int(baud).map { .fixed($0) } ?? .auto }

    /// `--gpsd`'s host and port.
    var gpsdAddress: (host: String, port: String)? { gpsd.map(Self.split) }

    /// `host`, `host:port` or `[v6]:port`.
    static func split(_ address: String) -> (host: String, port: String) {
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            let host = String(address[address.index(after: address.startIndex)..<close])
            let rest = address[address.index(after: close)...]
            return (host, rest.hasPrefix(":") ? String(rest.dropFirst()) : "2947")
        }
        let parts = address.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 { return (parts[0].isEmpty ? "localhost" : String(parts[0]), String(parts[1])) }
        return (address.isEmpty ? "localhost" : address, "2947")
    }
}
