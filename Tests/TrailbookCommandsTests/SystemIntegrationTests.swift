import Foundation
import Testing
import TrackStore
import TrailbookTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The udev rules and the systemd unit in udev/.
@Suite(.serialized) struct SystemIntegrationTests {
    /// The unit rendered as `make install` would, pointing at the binary under test: the
    /// recorder's (as one instance of it), or `unit`.
    func renderedUnit(_ unit: String? = nil) throws -> String {
        let dir = try Samples.temporaryDirectory()
        let out = dir + "/" + (unit ?? "trailbook-record@ttyUSB0.service")
        let render = Process()
        render.executableURL = URL(fileURLWithPath: "/bin/bash")
        render.arguments =
            [
                packageRoot.appendingPathComponent("scripts/render-unit.sh").path,
                try trailbookBinary().deletingLastPathComponent().path, packageRoot.path, out,
            ] + (unit.map { [$0] } ?? [])
        try render.run()
        render.waitUntilExit()
        #expect(render.terminationStatus == 0)
        return out
    }

    /// `systemd-analyze` with `arguments`: its status and what it printed (both streams).
    func analyze(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let analyze = "/usr/bin/systemd-analyze"
        try #require(
            FileManager.default.isExecutableFile(atPath: analyze),
            "systemd-analyze is missing: sudo apt-get install systemd")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze)
        process.arguments = arguments
        let out = Pipe()
        process.standardError = out
        process.standardOutput = out
        try process.run()
        let message = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    @Test func unitPassesSystemdAnalyzeVerify() throws {
        for unit in [nil, "trailbook-serve.service"] {
            let verified = try analyze(["verify", "--man=no", try renderedUnit(unit)])
            #expect(verified.status == 0, "\(unit ?? "record"): \(verified.output)")
        }
    }

    /// The server's unit is sandboxed at least as well as the recorder's (`systemd-analyze
    /// security`: a lower exposure is better), and both run as the one user that owns the store.
    @Test func theServerUnitIsSandboxedAsWellAsTheRecorders() throws {
        func exposure(_ unit: String?) throws -> Double {
            let scored = try analyze(["security", "--offline=yes", try renderedUnit(unit)])
            let line = try #require(
                scored.output.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(scored.output)"
            )
            let number = try #require(line.split(separator: " ").compactMap { Double($0) }.first, "\(line)")
            return number
        }
        let (serve, record) = (try exposure("trailbook-serve.service"), try exposure(nil))
        #expect(serve <= record, "serve \(serve), record \(record)")
        for unit in [nil, "trailbook-serve.service"] {
            let text = try String(contentsOfFile: try renderedUnit(unit), encoding: .utf8)
            #expect(text.contains("\nUser=trailbook\n") && text.contains("\nStateDirectory=trailbook\n"))
        }
    }

    /// The server unit's command line, its store and its config and cache folders moved to a
    /// temporary place as systemd's would be: it serves and stops on SIGTERM.
    @Test func theServerUnitsCommandLineServes() async throws {
        let unit = try String(contentsOfFile: try renderedUnit("trailbook-serve.service"), encoding: .utf8)
        let lines = unit.split(separator: "\n")
        let execStart = try #require(lines.first { $0.hasPrefix("ExecStart=") })
        let dir = try Samples.temporaryDirectory()
        let command = execStart.dropFirst("ExecStart=".count)
            .replacingOccurrences(of: "/var/lib/trailbook", with: dir)
            .replacingOccurrences(of: "127.0.0.1:8750", with: "127.0.0.1:0")
            .split(separator: " ").map(String.init)
        #expect(command.contains("serve") && command.contains(dir + "/trailbook.sqlite"))
        let environment = try #require(lines.first { $0.hasPrefix("Environment=") })
        var variables = ProcessInfo.processInfo.environment
        for pair in environment.dropFirst("Environment=".count).split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            variables[parts[0]] = parts[1].replacingOccurrences(of: "/var/lib/trailbook", with: dir)
        }
        #expect(variables["XDG_CONFIG_HOME"] == dir + "/config" && variables["XDG_CACHE_HOME"] == dir + "/cache")
        let log = dir + "/serve.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = variables
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The port the system chose is in the start line (no base map tile is asked for: nothing
        // goes to the network).
        var address: String?
        let deadline = Date().addingTimeInterval(60)
        while address == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            address = text.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression).map { String(text[$0]) }
            if address == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let base = try #require(address.flatMap(URL.init(string:)), "the unit's serve did not start")
        let health = try await HTTP.request(base.appendingPathComponent("api/health"))
        #expect(health.0 == 200)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/trailbook.sqlite"))
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
        let stored = try RecordCommandTests().awaitPoints(35, in: store)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stored, "the unit's recorder stored the ride's points within 20 s")
    }
}
