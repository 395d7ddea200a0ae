import ArgumentParser
import Foundation
import GPSDevices

/// `trailbook devices`: which receivers are plugged in, whether this user may open them,
/// and what gpsd has.
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List GPS receivers, whether you may open them, and what gpsd has.",
        discussion: """
            Lists /dev/ttyUSB* and /dev/ttyACM* with their stable /dev/serial/by-id names, USB \
            vendor/product and kernel driver from sysfs, and whether this user may open them \
            (if not: join the dialout group or install the udev rule). --probe opens each one it \
            may and listens for NMEA at each baud rate (up to 1.5 s per rate) to report the rate, \
            the talkers (GP, GN, GL, ...) and whether it has a fix. Also asks gpsd (default \
            localhost:2947) whether it answers and which devices it reads.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Open each accessible receiver and detect baud rate, talkers and fix.")
    var probe = false

    @Flag(help: "Print one JSON document (keys documented in docs/COMMANDS.md).")
    var json = false

    @Option(help: ArgumentHelp("Where to ask gpsd.", valueName: "host[:port]"))
    var gpsd = "localhost:2947"

    struct ProbeReport: Codable {
        var baud: Int?
        var talkers: [String]
        var fix: Bool
        var error: String?
    }

    struct DeviceReport: Codable {
        var path: String
        var node: String
        var byID: String?
        var vendorID: String?
        var productID: String?
        var manufacturer: String?
        var product: String?
        var driver: String?
        var accessible: Bool
        var probe: ProbeReport?

        enum CodingKeys: String, CodingKey {
            case path, node
            case byID = "by_id"
            case vendorID = "vendor_id"
            case productID = "product_id"
            case manufacturer, product, driver, accessible, probe
        }
    }

    struct GPSDReport: Codable {
        var address: String
        var answering: Bool
        var devices: [String]
        var error: String?
    }

    struct Report: Codable {
        var devices: [DeviceReport]
        var gpsd: GPSDReport
    }

    func run() async throws {
        let reports = DeviceDiscovery.candidates().map { c in
            DeviceReport(
                path: c.preferredPath, node: c.node, byID: c.byID, vendorID: c.vendorID, productID: c.productID,
                manufacturer: c.manufacturer, product: c.product, driver: c.driver, accessible: c.accessible,
                probe: probe ? probeDevice(c) : nil)
        }
        let (host, port) = ReceiverOptions.split(gpsd)
        let status = GPSDProbe.status(host: host, port: port)
        let report = Report(
            devices: reports,
            gpsd: GPSDReport(
                address: "\(host):\(port)", answering: status.answering, devices: status.devices, error: status.error))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(Self.text(report))
        }
    }

    private func probeDevice(_ c: DeviceDiscovery.Candidate) -> ProbeReport {
        guard c.accessible else { return ProbeReport(talkers: [], fix: false, error: "permission denied") }
        do {
            let port = try SerialPort(path: c.node, baud: SerialPort.probeOrder[0])
            guard let r = try BaudProbe.detect(port, rates: SerialPort.probeOrder, window: 1.5, shouldStop: { false })
            else {
                return ProbeReport(talkers: [], fix: false, error: "no NMEA at any baud rate")
            }
            return ProbeReport(baud: r.baud, talkers: r.talkers, fix: r.hasFix)
        } catch {
            return ProbeReport(talkers: [], fix: false, error: "\(error)")
        }
    }

    static func text(_ r: Report) -> String {
        var lines: [String] = []
        if r.devices.isEmpty {
            lines.append("No serial receivers (/dev/ttyUSB*, /dev/ttyACM*) are plugged in.")
        }
        for d in r.devices {
            var line = d.path
            if d.byID != nil { line += " -> \(d.node)" }
            var info: [String] = []
            if let v = d.vendorID, let p = d.productID { info.append("USB \(v):\(p)") }
            if let m = d.manufacturer { info.append(m) }
            if let p = d.product { info.append(p) }
            if let drv = d.driver { info.append("driver \(drv)") }
            if !info.isEmpty { line += "  (" + info.joined(separator: ", ") + ")" }
            line += d.accessible ? "  readable" : "  NOT readable: sudo usermod -aG dialout $USER, then log in again"
            if let p = d.probe {
                if let baud = p.baud {
                    line +=
                        "  \(baud) baud, talkers \(p.talkers.joined(separator: ",")), " + (p.fix ? "fix" : "no fix yet")
                } else if let e = p.error {
                    line += "  probe: \(e)"
                }
            }
            lines.append(line)
        }
        if r.gpsd.answering {
            let devs = r.gpsd.devices.isEmpty ? "no devices" : r.gpsd.devices.joined(separator: ", ")
            lines.append("gpsd at \(r.gpsd.address): answering, \(devs)")
        } else {
            lines.append("gpsd at \(r.gpsd.address): not answering (\(r.gpsd.error ?? "no answer"))")
        }
        return lines.joined(separator: "\n")
    }
}
