import Foundation
import Testing
import TrailbookTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `trailbook watch` and `trailbook devices` end to end, through real pseudo-terminals.
@Suite(.serialized) struct WatchCommandTests {
    @Test func csvFromAPtyMatchesDecode() async throws {
        let dir = try Samples.temporaryDirectory()
        let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
        let epochs = try Samples.rideEpochs()
        let feeder = Feeder(pty, epochs: Array(epochs[0..<80]), rate: 10)
        defer { feeder.stop() }
        let result = try await run(["watch", "--device", pty.linkPath, "--format", "csv", "--count", "20"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n")
        #expect(rows.first == (try await run(["decode", "Samples/ride.nmea"]).stdout.split(separator: "\n").first))
        #expect(rows.count == 21)
        let decoded = Set(try await run(["decode", "Samples/ride.nmea"]).stdout.split(separator: "\n").dropFirst())
        for row in rows.dropFirst() {
            #expect(decoded.contains(row), "a row decode does not print: \(row)")
        }
        #expect(result.stderr.contains("connected: \(pty.linkPath) at 9600 baud"))
    }

    @Test func missingDeviceExits69AndSaysWhatToDo() async throws {
        let result = try await run(["watch", "--device", "/dev/ttyUSB-none"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("/dev/ttyUSB-none does not exist"))
        #expect(result.stderr.contains("--device"))
    }

    @Test func permissionDeniedExits77WithTheDialoutFix() throws {
        guard getuid() == 0 else {
            Issue.record("This test drops privileges with setpriv and must run as root (CI and make test do).")
            return
        }
        let setpriv = "/usr/bin/setpriv"
        try #require(
            FileManager.default.isExecutableFile(atPath: setpriv), "setpriv is missing: apt-get install util-linux")
        let dir = try Samples.temporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir)
        let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
        chmod(pty.slavePath, 0o600)
        let result = try runBinary(
            ["watch", "--device", pty.linkPath],
            prefix: [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stderr.contains("sudo usermod -aG dialout $USER"))
    }

    @Test func replayOfSomethingThatIsNotNMEAExits65() async throws {
        let dir = try Samples.temporaryDirectory()
        let path = dir + "/photo.jpg"
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131) | 0x80 }).write(to: URL(fileURLWithPath: path))
        let result = try await run(["watch", "--replay", path, "--format", "csv"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("No NMEA sentences found in \(path)"))
    }

    @Test func severalReceiversWithoutDeviceIsAUsageError() async throws {
        let root = try Samples.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/dev", withIntermediateDirectories: true)
        let a = try PseudoTerminal(linkPath: root + "/dev/ttyUSB0")
        let b = try PseudoTerminal(linkPath: root + "/dev/ttyACM0")
        let result = try await run(
            ["watch"], environment: ["TRAILBOOK_DEV_ROOT": root + "/dev", "TRAILBOOK_SYS_ROOT": root + "/sys"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Several receivers are plugged in (\(b.linkPath), \(a.linkPath))"))
    }

    @Test func gpsdNotAnsweringExits69() async throws {
        let result = try await run(["watch", "--gpsd", "127.0.0.1:1"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("gpsd is not answering on 127.0.0.1:1"))
    }

    @Test func sigtermStopsCleanlyWithExit0() throws {
        let process = Process()
        process.executableURL = try trailbookBinary()
        process.arguments = ["watch", "--replay", "Samples/ride.nmea", "--realtime", "--format", "csv"]
        process.currentDirectoryURL = packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Stopped once it has printed the header and a fix (in real time: about a second).
        var data = Data()
        while data.count(where: { $0 == UInt8(ascii: "\n") }) < 2 {
            let more = out.fileHandleForReading.availableData
            if more.isEmpty { break }  // it ended by itself: said below
            data += more
        }
        kill(process.processIdentifier, SIGTERM)
        data += out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines.count >= 2, "header and at least one fix before SIGTERM")
    }

    @Test func devicesListsAndProbesAReceiver() async throws {
        // A prepared /dev and /sys: ttyUSB0 (a pty fed with NMEA) behind a by-id link, and its
        // USB device in sysfs with vendor, product and driver.
        let root = try Samples.temporaryDirectory()
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/dev/serial/by-id", withIntermediateDirectories: true)
        let pty = try PseudoTerminal(linkPath: root + "/dev/ttyUSB0")
        try fm.createSymbolicLink(
            atPath: root + "/dev/serial/by-id/usb-u-blox_GNSS_receiver-if00", withDestinationPath: "../../ttyUSB0")
        let usb = root + "/sys/devices/pci0000:00/usb1/1-1"
        let interface = usb + "/1-1:1.0/ttyUSB0"
        try fm.createDirectory(atPath: interface, withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/sys/bus/usb-serial/drivers/cp210x", withIntermediateDirectories: true)
        try fm.createSymbolicLink(
            atPath: interface + "/driver", withDestinationPath: root + "/sys/bus/usb-serial/drivers/cp210x")
        for (name, value) in [
            ("idVendor", "1546"), ("idProduct", "01a7"), ("manufacturer", "u-blox AG"),
            ("product", "u-blox GNSS receiver"),
        ] {
            try (value + "\n").write(toFile: usb + "/" + name, atomically: true, encoding: .utf8)
        }
        try fm.createDirectory(atPath: root + "/sys/class/tty/ttyUSB0", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: root + "/sys/class/tty/ttyUSB0/device", withDestinationPath: interface)
        let feeder = Feeder(pty, epochs: Array(try Samples.rideEpochs()[0..<200]), rate: 10)
        defer { feeder.stop() }

        let env = ["TRAILBOOK_DEV_ROOT": root + "/dev", "TRAILBOOK_SYS_ROOT": root + "/sys"]
        let result = try await run(["devices", "--probe", "--json", "--gpsd", "127.0.0.1:1"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let devices = try #require(json["devices"] as? [[String: Any]])
        let d = try #require(devices.first)
        #expect(d["path"] as? String == root + "/dev/serial/by-id/usb-u-blox_GNSS_receiver-if00")
        #expect(d["node"] as? String == root + "/dev/ttyUSB0")
        #expect(d["vendor_id"] as? String == "1546" && d["product_id"] as? String == "01a7")
        #expect(d["driver"] as? String == "cp210x" && d["accessible"] as? Bool == true)
        let probe = try #require(d["probe"] as? [String: Any])
        #expect(probe["baud"] as? Int == 9600)
        #expect(probe["talkers"] as? [String] == ["GP"])
        #expect(probe["fix"] as? Bool == true)
        let gpsd = try #require(json["gpsd"] as? [String: Any])
        #expect(gpsd["answering"] as? Bool == false)

        let text = try await run(["devices", "--gpsd", "127.0.0.1:1"], environment: env)
        #expect(text.stdout.contains("USB 1546:01a7"))
        #expect(text.stdout.contains("not answering"))
    }
}
