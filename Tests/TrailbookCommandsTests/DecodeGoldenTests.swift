import Foundation
import Testing
import TrailbookTestSupport

/// `decode`'s output, byte for byte, as the decoder gave it before its hot path was redesigned
/// for speed (issue 21): the SHA-256 of the CSV, the JSON Lines and the `--stats` line of every
/// sample, every log of the gpsd conformance corpus (../shared), and the 24-hour and 4-day logs
/// `make bench` decodes (made here by `simulate` with their seeds). Only the digests are kept, in
/// `Golden/decode-sha256.txt`; `TRAILBOOK_WRITE_GOLDENS=1 swift test --filter DecodeGoldenTests`
/// writes them again (only when an output is meant to change).
@Suite(.serialized) struct DecodeGoldenTests {
    static let goldenPath = packageRoot.appendingPathComponent("Tests/TrailbookCommandsTests/Golden/decode-sha256.txt")
        .path
    static let conformance = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance/gpsd")
        .path

    /// `name format` → digest, from the golden file.
    static func goldens() throws -> [String: String] {
        let text = try String(contentsOfFile: goldenPath, encoding: .utf8)
        var digests: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 3 else { continue }
            digests["\(parts[1]) \(parts[2])"] = String(parts[0])
        }
        return digests
    }

    /// The SHA-256 of what `trailbook decode ARGS` writes on standard output (or, with `stats`,
    /// standard error), piped through sha256sum so a large output is never held.
    static func digest(_ arguments: [String], stats: Bool = false) throws -> String {
        let binary = try trailbookBinary().path
        let quoted = ([binary, "decode"] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let command =
            "set -o pipefail; "
            + (stats
                ? quoted.joined(separator: " ") + " --stats 2>&1 >/dev/null | sha256sum"
                : quoted.joined(separator: " ") + " | sha256sum")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", command]
        p.currentDirectoryURL = packageRoot
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0, let hex = text.split(separator: " ").first, hex.count == 64 else {
            throw RunError("trailbook decode \(arguments.joined(separator: " ")) failed (\(p.terminationStatus)).")
        }
        return String(hex)
    }

    /// The digests of one input: CSV, JSON Lines, the statistics line.
    static func digests(of path: String, name: String) throws -> [String: String] {
        [
            "\(name) csv": try digest([path]), "\(name) jsonl": try digest(["--format", "jsonl", path]),
            "\(name) stats": try digest([path], stats: true),
        ]
    }

    /// Checks `found` against the golden file, or writes it when asked to.
    static func check(_ found: [String: String], _ what: String) throws {
        if ProcessInfo.processInfo.environment["TRAILBOOK_WRITE_GOLDENS"] == "1" {
            let kept = ((try? goldens()) ?? [:]).filter { found[$0.key] == nil }
            let lines = kept.merging(found) { $1 }.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            try (["# SHA-256 of trailbook decode's output (DecodeGoldenTests): digest, input, output"] + lines)
                .joined(separator: "\n").appending("\n").write(toFile: goldenPath, atomically: true, encoding: .utf8)
            return
        }
        let golden = try goldens()
        for (key, digest) in found.sorted(by: { $0.key < $1.key }) {
            #expect(golden[key] != nil, "\(key): no golden digest (\(what))")
            #expect(golden[key] == nil || golden[key] == digest, "\(key): the output changed (\(what))")
        }
    }

    @Test func samplesDecodeAsBefore() throws {
        var found: [String: String] = [:]
        for sample in ["ride.nmea"] + DecodeCommandTests.goldens.map(\.0).filter { $0 != "ride.nmea" } {
            found.merge(try Self.digests(of: "Samples/\(sample)", name: sample)) { $1 }
        }
        try Self.check(found, "samples")
    }

    @Test func theConformanceCorpusDecodesAsBefore() throws {
        guard FileManager.default.fileExists(atPath: Self.conformance) else {
            Issue.record(
                "\(Self.conformance) is missing: the gpsd conformance corpus comes with ../shared beside the repository."
            )
            return
        }
        let logs = try FileManager.default.contentsOfDirectory(atPath: Self.conformance).filter { $0.hasSuffix(".log") }
            .sorted()
        #expect(logs.count >= 70, "\(logs.count) logs")
        var found: [String: String] = [:]
        for log in logs { found.merge(try Self.digests(of: Self.conformance + "/" + log, name: "gpsd/" + log)) { $1 } }
        try Self.check(found, "conformance corpus")
    }

    /// The logs `make bench` times: 24 hours (seed 24) and 4 days (seed 96) of 1 Hz epochs.
    @Test(arguments: [("day.nmea", 86_400, 24), ("4days.nmea", 345_600, 96)])
    func theBenchLogsDecodeAsBefore(name: String, seconds: Int, seed: Int) async throws {
        let dir = try Samples.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/" + name
        let made = try await run(["simulate", "--duration", String(seconds), "--seed", String(seed), "-o", log])
        #expect(made.status == 0, "\(made.stderr)")
        var found = try Self.digests(of: log, name: "bench/" + name)
        found["bench/\(name) input"] = try Self.sha256(of: log)
        try Self.check(found, "bench log")
    }

    static func sha256(of path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return String(text.prefix(64))
    }
}
