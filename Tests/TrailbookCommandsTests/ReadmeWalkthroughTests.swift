import Foundation
import Testing
import TrailbookTestSupport

/// The README's examples, run as written by a new user in an empty home folder: every shell
/// block of the README whose commands run on this machine alone, each line with the test's
/// binary for `trailbook` and a folder of the test's for `/tmp`. A line that needs a receiver,
/// another host or a secret is left out, by a rule below that says why; every other line must
/// succeed, or end with the exit code and the sentence the table below expects.
@Suite struct ReadmeWalkthroughTests {
    /// Lines run by none of the tests here, and why.
    static func leftOut(_ line: String) -> String? {
        if line.hasPrefix("make ") { return "make demo and make test are what runs this test" }
        if line.hasPrefix("sudo ") || line.hasPrefix("journalctl ") { return "needs systemd running the service" }
        if line.contains("--device /dev/") || line.contains("record --") { return "needs a receiver" }
        // An alert's channel is only stored by `alert add`; `alert test`, a report's web tiles, a
        // server and curl reach the host.
        if line.contains("alert test") || (!line.contains("alert add") && line.contains("://")) {
            return "reaches another host"
        }
        if line.contains("$PASSWORD") || line.contains("$TOKEN") || line.contains("$BENS_PASSWORD") {
            return "needs a secret the reader chooses"
        }
        if line.contains("geocoder import cities500") { return "needs GeoNames' file, which the reader downloads" }
        if line.contains("device list --user ana") { return "needs the account of the line before, with its password" }
        return nil
    }

    /// Lines that end otherwise than with 0, as the README's reader sees them: the exit code
    /// and a part of the sentence.
    static let expected: [String: (Int32, String)] = [
        // The catch kind is the starter config's (`config init`, the line before); a new user has
        // no catches yet.
        "suggest --kind catch --best weight": (66, "no records of the kind catch"),
        "device add phone --user ana": (66, "ana"),
    ]

    @Test func theREADMEsExamplesRunAsWritten() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let home = try Samples.temporaryDirectory()
        let scratch = home + "/tmp"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let binary = try trailbookBinary().path
        var ran = 0
        var skipped: [String: Int] = [:]
        for block in Self.shellBlocks(readme) {
            let assignments = block.filter { $0.range(of: #"^[A-Z]+=\S+$"#, options: .regularExpression) != nil }
            for line in block where !assignments.contains(line) {
                if let why = Self.leftOut(line) {
                    skipped[why, default: 0] += 1
                    continue
                }
                // `/tmp/` first: the binary's own path may lie under /tmp (a CI clone).
                let command = (assignments + [line]).joined(separator: "\n")
                    .replacingOccurrences(of: "/tmp/", with: scratch + "/")
                    .replacingOccurrences(of: ".build/debug/trailbook", with: binary)
                    .replacingOccurrences(
                        of: #"(^|[\s;(|])trailbook "#, with: "$1\(binary) ", options: .regularExpression
                    )
                let result = try Self.shell(command, home: home)
                let expectation = Self.expected.first { line.contains($0.key) }?.value
                if let (code, words) = expectation {
                    #expect(
                        result.status == code && (result.stdout + result.stderr).contains(words),
                        "README: \(line)\n\(result.stderr)")
                } else {
                    #expect(result.status == 0, "README: \(line)\nexit \(result.status): \(result.stderr)")
                }
                ran += 1
            }
        }
        #expect(ran >= 38, "the README's examples were found and run: \(ran), left out \(skipped)")
        // What the examples made, where the README says.
        #expect(FileManager.default.fileExists(atPath: scratch + "/2026-06-14.html"))
        #expect(FileManager.default.fileExists(atPath: scratch + "/2026-06-14.gpx"))
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/trailbook/trailbook.sqlite"))
        #expect(FileManager.default.fileExists(atPath: home + "/.config/trailbook/config.toml"), "config init")
    }

    /// COMMANDS.md's `import --json` example is what the command prints for the sample (but for
    /// the store's path, which is the reader's).
    @Test func theImportJSONExampleIsWhatTheCommandPrints() async throws {
        let commands = try String(contentsOf: packageRoot.appendingPathComponent("docs/COMMANDS.md"), encoding: .utf8)
        let intro = try #require(commands.range(of: "`trailbook import Samples/ride.nmea --json` into a new store"))
        let rest = commands[intro.upperBound...]
        let open = try #require(rest.range(of: "```json\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        let example = try #require(
            try JSONSerialization.jsonObject(with: Data(rest[open.upperBound..<close.lowerBound].utf8))
                as? [String: Any])
        let home = try Samples.temporaryDirectory()
        let printed = try await run(["import", "Samples/ride.nmea", "--json"], environment: Self.environment(home))
        var real = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])
        #expect(real["store"] as? String == home + "/.local/share/trailbook/trailbook.sqlite")
        real["store"] = example["store"]
        #expect(NSDictionary(dictionary: real) == NSDictionary(dictionary: example), "\(printed.stdout)")
    }

    /// The lines of every ```sh block, without comments and continuation.
    static func shellBlocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("```sh") {
                current = []
            } else if line.hasPrefix("```") {
                if let c = current { blocks.append(c) }
                current = nil
            } else if current != nil {
                let code = Self.withoutComment(line).trimmingCharacters(in: .whitespaces)
                if !code.isEmpty { current!.append(code) }
            }
        }
        return blocks
    }

    /// `line` up to a `#` that starts a comment (not one inside quotes).
    static func withoutComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (i, c) in zip(line.indices, line) {
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "#" && previous.isWhitespace {
                return String(line[..<i])
            }
            previous = c
        }
        return line
    }

    static func environment(_ home: String) -> [String: String] {
        [
            "HOME": home, "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": "", "TRAILBOOK_STORE": "",
            "TRAILBOOK_MEDIA": "",
        ]
    }

    /// Runs `command` with /bin/sh in the package's folder, with `home` as `$HOME`.
    static func shell(_ command: String, home: String) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment(home)) { $1 }
        process.currentDirectoryURL = packageRoot
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errors = Locked(Data())
        let reader = Thread { errors.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while reader.isExecuting || !reader.isFinished { Thread.sleep(forTimeInterval: 0.005) }
        return RunResult(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self))
    }
}
