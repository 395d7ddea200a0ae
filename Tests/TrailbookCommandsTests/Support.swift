import Foundation
import Testing
import TrailbookTestSupport

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The `trailbook` executable built with the tests (`swift build` puts it beside the test bundle).
func trailbookBinary() throws -> URL {
    let candidates = [
        ProcessInfo.processInfo.environment["TRAILBOOK_BIN"].map { URL(fileURLWithPath: $0) },
        Bundle.main.bundleURL.appendingPathComponent("trailbook"),
        packageRoot.appendingPathComponent(".build/debug/trailbook"),
    ].compactMap { $0 }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw RunError("The trailbook executable was not found; run `swift build` (or `make test`) before the tests.")
    }
    return found
}

struct RunError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `trailbook ARGS...` with `input` on standard input; `environment` adds variables,
/// `prefix` runs it through another program (e.g. setpriv to drop privileges). With `terminal`,
/// standard input is that terminal instead (a pseudo-terminal's slave: `isatty` is true), and
/// `input` is typed into it.
func run(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:], prefix: [String] = [],
    terminal: PseudoTerminal? = nil
) throws -> RunResult {
    let process = Process()
    let binary = try trailbookBinary()
    if let tool = prefix.first {
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = Array(prefix.dropFirst()) + [binary.path] + arguments
    } else {
        process.executableURL = binary
        process.arguments = arguments
    }
    // Never the developer's own store or config: a throwaway place unless the test says otherwise.
    let sandbox = FileManager.default.temporaryDirectory.appendingPathComponent(
        "trailbook-test-home-\(UUID().uuidString)"
    ).path
    let isolation = [
        "TRAILBOOK_STORE": sandbox + "/store.sqlite", "XDG_CONFIG_HOME": sandbox + "/config",
        "XDG_DATA_HOME": sandbox + "/data",
    ]
    process.environment = ProcessInfo.processInfo.environment.merging(isolation) { $1 }.merging(environment) { $1 }
    process.currentDirectoryURL = packageRoot
    let out = Pipe()
    let err = Pipe()
    let inp = Pipe()
    process.standardOutput = out
    process.standardError = err
    let tty = try terminal.map { t in
        guard let handle = FileHandle(forUpdatingAtPath: t.slavePath) else {
            throw RunError("Cannot open the pseudo-terminal \(t.slavePath).")
        }
        return handle
    }
    process.standardInput = tty ?? inp
    try process.run()
    if let terminal {
        if let input { terminal.send(Array(input)) }
    } else if let input {
        inp.fileHandleForWriting.write(input)
    }
    try inp.fileHandleForWriting.close()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try tty?.close()
    return RunResult(
        status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
        stderr: String(decoding: e, as: UTF8.self))
}

/// A new device of `user` in the server store `store`, and the token `device add` printed for it.
func deviceToken(_ device: String, user: String, store: String) throws -> String {
    let r = try run(["device", "add", device, "--user", user, "--store", store, "--json"])
    return try #require(
        (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: String])?["token"], "\(r.stderr)")
}
