import Foundation
import Testing
import TrackStore
import TrailbookTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The udev rules and the systemd unit in udev/.
@Suite(.serialized) struct SystemIntegrationTests {
    /// The unit rendered as `make install` would, pointing at the binary under test.
    func renderedUnit() throws -> String {
        let dir = try Samples.temporaryDirectory()
        let out = dir + "/trailbook-record@ttyUSB0.service"
        let render = Process()
        render.executableURL = URL(fileURLWithPath: "/bin/bash")
        render.arguments = [
            packageRoot.appendingPathComponent("scripts/render-unit.sh").path,
            try trailbookBinary().deletingLastPathComponent().path, packageRoot.path, out,
        ]
        try render.run()
        render.waitUntilExit()
        #expect(render.terminationStatus == 0)
        return out
    }

    @Test func unitPassesSystemdAnalyzeVerify() throws {
        let analyze = "/usr/bin/systemd-analyze"
        try #require(
            FileManager.default.isExecutableFile(atPath: analyze),
            "systemd-analyze is missing: sudo apt-get install systemd")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze)
        process.arguments = ["verify", "--man=no", try renderedUnit()]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }

    @Test func rulesAreWellFormed() throws {
        let text = try String(
            contentsOf: packageRoot.appendingPathComponent("udev/60-trailbook.rules"), encoding: .utf8)
        // KEY or KEY{attribute}, an operator, a double-quoted value; pairs separated by ", ".
        let pair = #"[A-Z_]+(\{[A-Za-z0-9_]+\})?(==|!=|\+=|-=|:=|=)"[^"]*""#
        let line = try Regex("^\(pair)(, \(pair))*$")
        var rules = 0
        for raw in text.split(separator: "\n")
        where !raw.hasPrefix("#") && !raw.trimmingCharacters(in: .whitespaces).isEmpty {
            #expect(String(raw).wholeMatch(of: line) != nil, "not a udev rule: \(raw)")
            rules += 1
        }
        #expect(rules >= 10)
        for vendor in ["1546", "091e", "0e8d", "067b", "10c4", "0403"] {
            #expect(text.contains("ATTRS{idVendor}==\"\(vendor)\""), "matches vendor \(vendor)")
        }
        #expect(text.contains(#"ENV{SYSTEMD_WANTS}+="trailbook-record@%k.service""#))
        #expect(text.contains(#"GROUP="dialout""#))
    }

    @Test func theUnitsCommandLineRecords() throws {
        let unit = try String(contentsOfFile: try renderedUnit(), encoding: .utf8)
        let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let dir = try Samples.temporaryDirectory()
        let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
        let store = dir + "/trailbook.sqlite"
        // systemd gives %I = the kernel name under /dev; the store moves to a temporary place.
        let command = execStart.dropFirst("ExecStart=".count)
            .replacingOccurrences(of: "/dev/%I", with: pty.slavePath)
            .replacingOccurrences(of: "/var/lib/trailbook/trailbook.sqlite", with: store)
            .split(separator: " ").map(String.init)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardError = FileHandle.nullDevice
        try process.run()
        try pty.awaitOpened(by: "the unit's command")
        Feeder(pty, epochs: Array(try Samples.rideEpochs()[0..<40]), rate: 40).wait()
        Thread.sleep(forTimeInterval: 2.5)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try TrackStore(path: store).points(fromMilliseconds: .min, toMilliseconds: .max).count >= 35)
    }
}
