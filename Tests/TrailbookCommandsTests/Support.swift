import Foundation
import GPSCore
import StorePostgres
import Testing
import TrackStore
import TrailbookCommands
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

/// Runs `trailbook ARGS...` in the test's own process, as the binary runs it
/// (`Trailbook.main`): `input` on standard input, standard output and error captured,
/// `environment` added to the test's own, and the exit code the binary would have exited with.
/// As with ``runBinary(_:input:environment:prefix:terminal:)``, the store, config, data and cache
/// folders are a throwaway place unless the test names its own.
func run(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) async throws
    -> RunResult
{
    // What only a process of its own can be given: its time zone, its decoder's threads, its
    // password cost (read once a process).
    if environment.keys.contains(where: InProcess.processOnly.contains) {
        return try await Blocking.run { try runBinary(arguments, input: input, environment: environment) }
    }
    try InProcess.enterPackageRoot()
    let captured = try CapturedConsole(
        input: input,
        environment: ProcessInfo.processInfo.environment.merging(isolation()) { $1 }.merging(environment) { $1 })
    let status = await Console.$current.withValue(captured.console) { await Trailbook.main(arguments) }
    let (stdout, stderr) = captured.finish()
    return RunResult(status: status, stdout: stdout, stderr: stderr)
}

/// What a command run in process shares with the binary's runs: the package's folder as the
/// working directory (samples are named relative to it).
enum InProcess {
    /// Variables a command reads from its process, not from its console.
    static let processOnly: Set = ["TZ", "TRAILBOOK_DECODE_WORKERS", "TRAILBOOK_PASSWORD_COST"]

    private static let entered: Result<Void, RunError> = {
        guard FileManager.default.currentDirectoryPath != packageRoot.path else { return .success(()) }
        guard FileManager.default.changeCurrentDirectoryPath(packageRoot.path) else {
            return .failure(RunError("Cannot enter \(packageRoot.path) to run commands from there."))
        }
        return .success(())
    }()

    static func enterPackageRoot() throws { try entered.get() }
}

/// Never the developer's own store or config: a throwaway place.
func isolation() -> [String: String] {
    let sandbox = FileManager.default.temporaryDirectory.appendingPathComponent(
        "trailbook-test-home-\(UUID().uuidString)"
    ).path
    return [
        "TRAILBOOK_STORE": sandbox + "/store.sqlite", "XDG_CONFIG_HOME": sandbox + "/config",
        "XDG_DATA_HOME": sandbox + "/data", "XDG_CACHE_HOME": sandbox + "/cache",
    ]
}

/// Runs the `trailbook` binary with `input` on standard input; `environment` adds variables,
/// `prefix` runs it through another program (e.g. setpriv to drop privileges). With `terminal`,
/// standard input is that terminal instead (a pseudo-terminal's slave: `isatty` is true), and
/// `input` is typed into it. For what needs a process of its own: signals, terminals, another
/// user, the binary's own start.
func runBinary(
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
    process.environment = ProcessInfo.processInfo.environment.merging(isolation()) { $1 }.merging(environment) { $1 }
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
func deviceToken(_ device: String, user: String, store: String) async throws -> String {
    let r = try await run(["device", "add", device, "--user", user, "--store", store, "--json"])
    return try #require(
        (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: String])?["token"], "\(r.stderr)")
}

/// The two stores the server's end-to-end tests run on.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgresql
    var description: String { rawValue }
}

/// A new, empty store of `kind` (a file in a new folder, or a new database of the test
/// cluster) and a folder for what goes beside it (logs).
func newStore(_ kind: StoreKind) throws -> (store: String, folder: String) {
    let folder = try Samples.temporaryDirectory()
    switch kind {
    case .sqlite: return (folder + "/s.sqlite", folder)
    case .postgresql: return (try PostgresCluster.shared().newDatabase(), folder)
    }
}

/// Rows of `query` on a store, one line each, values joined by spaces: with Python's sqlite3 for
/// a file, psql for a database of the test cluster.
func storeRows(_ store: String, _ query: String) throws -> String {
    let p = Process()
    if store.hasPrefix("postgresql://") {
        p.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        p.arguments = ["-X", "-q", "-A", "-t", "-F", " ", "-d", store, "-c", query]
    } else {
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [
            "-c", "import sqlite3,sys;[print(*row) for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]",
            store, query,
        ]
    }
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return text
}

/// The store at `store` (a file or a database URL), opened in the test's own process.
func openStore(_ store: String) throws -> any TrackStoring {
    if store.hasPrefix("postgresql://") {
        return try PostgresStore(url: store, mediaDirectory: try Samples.temporaryDirectory(), create: false)
    }
    return try TrackStore(existingAt: store)
}
