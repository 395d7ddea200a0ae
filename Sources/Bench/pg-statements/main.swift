// What an async unit body would gain on PostgreSQL: the same statements sent by units that block a
// thread on each reply (a thread of `Blocking.start` waiting in `Blocking.settle`, as the store's
// units do) and by tasks that await it (PostgresNIO's async `query`), on connections of their own,
// 1 and 16 units at once.
//
//   swift build -c release --product bench-pg-statements   (with TRAILBOOK_BENCH=1 in the environment)
//   .build/release/bench-pg-statements URL [STATEMENTS]
//
// Prints, for each way and width: statements/s, mean reply time, and this process's CPU time per
// statement (user + system). Part of `make bench` (scripts/bench-postgres.sh).
import Foundation
import GPSCore
import Logging
import NIOCore
import PostgresNIO

struct Bench: Sendable {
    let statements: Int
    let configuration: PostgresConnection.Configuration
    let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })

    func connect() async throws -> PostgresConnection {
        try await PostgresConnection.connect(
            configuration: configuration, id: Int.random(in: 1...1_000_000), logger: logger)
    }

    /// This process's CPU time so far, s.
    static func cpu() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return s(usage.ru_utime) + s(usage.ru_stime)
    }

    /// The statement: one small row back, like most of a unit's reads.
    static func query(_ i: Int) -> PostgresQuery { "SELECT \(i)::int8 AS n, 'x'::text AS t" }

    func report(_ way: String, units: Int, seconds: Double, cpu: Double) {
        let count = Double(units * statements)
        print(
            String(
                format: "%@ units %2d: %7.0f statements/s, %6.1f µs a reply, %5.1f µs CPU a statement",
                way.padding(toLength: 9, withPad: " ", startingAt: 0), units, count / seconds,
                seconds / Double(statements) * 1e6, cpu / count * 1e6))
    }

    /// Each unit on a thread of its own, blocked on every reply.
    func blocking(units: Int) async throws {
        var connections: [PostgresConnection] = []
        for _ in 0..<units { connections.append(try await connect()) }
        let (start, used) = (Date(), Self.cpu())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for connection in connections {
                group.addTask {
                    try await withCheckedThrowingContinuation { (unit: CheckedContinuation<Void, any Error>) in
                        Blocking.start("unit") {
                            do {
                                for i in 0..<statements {
                                    _ = try Blocking.settle { done in
                                        connection.query(Self.query(i), logger: logger).whenComplete {
                                            done($0.mapError { $0 })
                                        }
                                    }
                                }
                                unit.resume()
                            } catch {
                                unit.resume(throwing: error)
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        report("blocking", units: units, seconds: Date().timeIntervalSince(start), cpu: Self.cpu() - used)
        for connection in connections { try await connection.close() }
    }

    /// Each unit a task, awaiting every reply.
    func awaiting(units: Int) async throws {
        var connections: [PostgresConnection] = []
        for _ in 0..<units { connections.append(try await connect()) }
        let (start, used) = (Date(), Self.cpu())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for connection in connections {
                group.addTask {
                    for i in 0..<statements {
                        for try await _ in try await connection.query(Self.query(i), logger: logger) {}
                    }
                }
            }
            try await group.waitForAll()
        }
        report("awaiting", units: units, seconds: Date().timeIntervalSince(start), cpu: Self.cpu() - used)
        for connection in connections { try await connection.close() }
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let url = URLComponents(string: arguments[1]), let host = url.host,
    let database = url.path.split(separator: "/").first
else {
    FileHandle.standardError.write(Data("usage: bench-pg-statements postgresql://USER@HOST:PORT/DATABASE [N]\n".utf8))
    exit(64)
}
let bench = Bench(
    statements: arguments.count > 2 ? Int(arguments[2]) ?? 20_000 : 20_000,
    configuration: PostgresConnection.Configuration(
        host: host, port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
        database: String(database), tls: .disable))
print("\(bench.statements) statements per unit, \(ProcessInfo.processInfo.activeProcessorCount) cores")
// Twice each, alternated: the machine's speed drifts.
for round in 1...2 {
    print("round \(round)")
    for units in [1, 16] {
        try await bench.blocking(units: units)
        try await bench.awaiting(units: units)
    }
}
