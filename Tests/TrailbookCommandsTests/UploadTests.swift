import Foundation
import Testing
import TrailbookTestSupport

@testable import TrackStore

#if canImport(Glibc)
    import Glibc
#endif

/// `record --server` and `trailbook push` against a running `trailbook serve`: store-and-forward,
/// every point once.
@Suite(.serialized) struct UploadTests {
    /// A simulated ride that started `minutesAgo` minutes ago (a server takes no point more than
    /// a year old), as NMEA epochs.
    func recentRide(seconds: Int, minutesAgo: Int, in dir: String) async throws -> [[UInt8]] {
        let start = Date().addingTimeInterval(-Double(minutesAgo * 60))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        let log = dir + "/ride.nmea"
        let r = try await run(["simulate", "--duration", "\(seconds)", "--start", formatter.string(from: start), "-o", log])
        #expect(r.status == 0, "\(r.stderr)")
        return Samples.epochs(of: Array(try Data(contentsOf: URL(fileURLWithPath: log))))
    }

    /// A server store with the account `ana` (password-less use: only her device token).
    func serverStore(_ dir: String) async throws -> (store: String, token: String) {
        let store = dir + "/server.sqlite"
        let added = try await run(
            ["user", "add", "ana", "--password-stdin", "--store", store],
            input: Data("correct horse battery staple".utf8))
        #expect(added.status == 0, "\(added.stderr)")
        return (store, try await deviceToken("bike", user: "ana", store: store))
    }

    /// What the server's logs say it was sent: points received and new, summed over requests.
    func received(_ logs: [String]) -> (received: Int, new: Int) {
        var total = (received: 0, new: 0)
        for log in logs {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where line.contains("points of ana/bike:") {
                let numbers = line.split(separator: ":").last!.split(separator: " ").compactMap { Int($0) }
                total.received += numbers[0]
                total.new += numbers[1]
            }
        }
        return total
    }

    /// The times and positions of ana's points on the server.
    func serverPoints(_ store: String) throws -> [String] {
        try TrackStore(path: store).readNow {
            try $0.points(account: "ana", fromMilliseconds: .min, toMilliseconds: .max)
        }.map {
            "\($0.fix.unixMilliseconds!) \($0.fix.coordinate!)"
        }
    }

    /// The times and positions of a local store's points (of `device` alone, when given).
    func localPoints(_ store: String, device: String? = nil) throws -> [String] {
        let devices: DeviceFilter = device.map { .named($0) } ?? .all
        return try TrackStore(path: store).readNow {
            try $0.points(fromMilliseconds: .min, toMilliseconds: .max, devices: devices)
        }.map {
            "\($0.unixMilliseconds!) \($0.coordinate!)"
        }
    }

    /// Waits up to `seconds` for `condition`.
    func waitFor(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return try condition()
    }

    /// A recorder on a pseudo-terminal uploading to a server that is stopped in the middle of the
    /// ride (until the recorder has found it gone and 4 s of the ride went on): every point arrives, once, in order; the points recorded after a
    /// second outage, when the recorder stopped before the server came back, are what `push`
    /// sends, and nothing else.
    @Test func recordServerStoppedMidRideEveryPointArrivesOnce() async throws {
        let dir = try Samples.temporaryDirectory()
        let (serverStore, token) = try await serverStore(dir)
        let epochs = try await recentRide(seconds: 330, minutesAgo: 30, in: dir)
        let logs = (1...3).map { dir + "/serve\($0).log" }
        var server = try ServeCommandTests.RunningServer(store: serverStore, log: logs[0])
        let address = "127.0.0.1:\(server.url.port!)"

        let local = dir + "/local.sqlite"
        let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
        let recordLog = dir + "/record.log"
        FileManager.default.createFile(atPath: recordLog, contents: nil)
        let record = Process()
        record.executableURL = try trailbookBinary()
        record.arguments = [
            "record", "--device", pty.linkPath, "--store", local, "--device-name", "bike", "--server",
            "http://\(address)", "--token", token, "--log-level", "info",
        ]
        record.standardOutput = FileHandle.nullDevice
        record.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: recordLog))
        try record.run()
        func recordLogText() -> String { (try? String(contentsOfFile: recordLog, encoding: .utf8)) ?? "" }
        try pty.awaitOpened()

        // 300 epochs at 10 a second; the server is away from epoch 60.
        let feeder = Feeder(pty, epochs: Array(epochs[0..<300]), rate: 10)
        #expect(waitFor(seconds: 30) { feeder.sent >= 60 })
        #expect(try waitFor(seconds: 10) { try serverPoints(serverStore).count > 10 }, "points arrive while it runs")
        let (stopped, _) = server.stop()
        #expect(stopped == 0)
        // Away until the recorder has found it gone and 40 more epochs (4 s of the ride) were sent.
        let awayFrom = feeder.sent
        #expect(
            waitFor(seconds: 30) {
                feeder.sent >= awayFrom + 40 && recordLogText().contains("does not answer (connection refused)")
            }, "\(recordLogText())")
        let whileAway = feeder.sent
        server = try ServeCommandTests.RunningServer(store: serverStore, listen: address, log: logs[1])
        feeder.wait()
        #expect(whileAway >= awayFrom + 40, "the ride went on while the server was away: \(whileAway) epochs sent")
        let everyPointArrived = try waitFor(seconds: 40) {
            let kept = try localPoints(local)
            let arrived = try serverPoints(serverStore)
            return kept.count >= 250 && arrived == kept
        }
        let counts = (server: try serverPoints(serverStore).count, local: try localPoints(local).count)
        #expect(everyPointArrived, "\(counts)")
        #expect(recordLogText().contains("does not answer (connection refused)"), "\(recordLogText())")
        #expect(recordLogText().contains("the server answers again"), "\(recordLogText())")

        // A second outage: the server stops, the ride goes on, the recorder stops before the
        // server is back. Those points wait in the store, and push sends them.
        let (stoppedAgain, _) = server.stop()
        #expect(stoppedAgain == 0)
        Feeder(pty, epochs: Array(epochs[300...]), rate: 10).wait()
        try await Task.sleep(for: .seconds(2.5))
        kill(record.processIdentifier, SIGTERM)
        record.waitUntilExit()
        #expect(record.terminationReason == .exit && record.terminationStatus == 0, "\(recordLogText())")
        #expect(recordLogText().contains("points wait to be sent"), "\(recordLogText())")
        let kept = try localPoints(local)
        let waiting = kept.count - (try serverPoints(serverStore)).count
        #expect(waiting >= 20, "the last points wait: \(waiting)")

        server = try ServeCommandTests.RunningServer(store: serverStore, listen: address, log: logs[2])
        let push = try await run(["push", "--server", "http://\(address)", "--token", token, "--store", local, "--json"])
        #expect(push.status == 0, "\(push.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(push.stdout.utf8)) as? [String: Any]
        #expect(report?["sent"] as? Int == waiting, "\(push.stdout)")
        #expect(try serverPoints(serverStore) == kept)
        let again = try await run(["push", "--server", "http://\(address)", "--token", token, "--store", local])
        #expect(again.status == 0 && again.stdout.contains("Nothing to send"), "\(again.stdout)")
        _ = server.stop()

        // Once: the server was sent each point one time, and each was new to it.
        let sums = received(logs)
        #expect(sums.received == kept.count && sums.new == kept.count, "\(sums), \(kept.count) points recorded")
    }

    /// `push` of an imported ride: a wrong token, a server that is down and a stranger's
    /// store are refused with their exit codes and send nothing; the right one sends every
    /// point, and a second push nothing.
    @Test func pushSendsTheBacklogOnce() async throws {
        let dir = try Samples.temporaryDirectory()
        let (serverStore, token) = try await serverStore(dir)
        let epochs = try await recentRide(seconds: 1200, minutesAgo: 120, in: dir)
        let local = dir + "/local.sqlite"
        #expect(try await run(["import", dir + "/ride.nmea", "--store", local, "--device-name", "bike"]).status == 0)
        let server = try ServeCommandTests.RunningServer(store: serverStore)
        let url = server.url.absoluteString
        defer { _ = server.stop() }

        let dry = try await run(["push", "--server", url, "--token", token, "--store", local, "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.contains("\(epochs.count) points of bike would be sent"), "\(dry.stdout)")
        let wrong = try await run(["push", "--server", url, "--token", "not-a-token", "--store", local])
        #expect(wrong.status == 77 && wrong.stderr.contains("refused the token (HTTP 401)"), "\(wrong.stderr)")
        // A 401 with a Basic challenge (a path behind a login): refused, not waited on for ever.
        let challenged = try await run(["push", "--server", url + "/api/share-codes", "--token", token, "--store", local])
        #expect(challenged.status == 77 && challenged.stderr.contains("refused the token"), "\(challenged.stderr)")
        let down = try await run(["push", "--server", "http://127.0.0.1:9", "--token", token, "--store", local])
        #expect(down.status == 69 && down.stderr.contains("does not answer"), "\(down.stderr)")
        let bad = try await run(["push", "--server", "ftp://example.org", "--token", token, "--store", local])
        #expect(bad.status == 64 && bad.stderr.contains("is not a server address"), "\(bad.stderr)")
        #expect(try serverPoints(serverStore).isEmpty, "nothing arrived from the refused pushes")

        // A second device with points: push asks which one.
        let spare = dir + "/spare.nmea"
        let old = ["--start", "2024-06-14T06:30:00"]
        #expect(try await run(["simulate", "--duration", "60", "--seed", "2", "-o", spare] + old).status == 0)
        #expect(try await run(["import", spare, "--store", local, "--device-name", "spare"]).status == 0)
        let which = try await run(["push", "--server", url, "--token", token, "--store", local])
        #expect(which.status == 64 && which.stderr.contains("bike, spare"), "\(which.stderr)")

        // The server takes no point more than a year old; --from skips them.
        let tooOld = try await run(["push", "--server", url, "--token", token, "--store", local, "--device-name", "spare"])
        #expect(tooOld.status == 65 && tooOld.stderr.contains("refused the points from 2024-06-14"), "\(tooOld.stderr)")
        let skipped = try await run(
            [
                "push", "--server", url, "--token", token, "--store", local, "--device-name", "spare", "--from",
                "2025-01-01",
            ])
        #expect(skipped.status == 0 && skipped.stdout.contains("Nothing to send"), "\(skipped.stdout)")

        let push = try await run(["push", "--server", url, "--token", token, "--store", local, "--device-name", "bike"])
        #expect(push.status == 0 && push.stdout.contains("Sent \(epochs.count) points of bike"), "\(push.stdout)")
        #expect(try serverPoints(serverStore) == (try localPoints(local, device: "bike")))
        let again = try await run(["push", "--server", url, "--token", token, "--store", local, "--device-name", "bike"])
        #expect(again.status == 0 && again.stdout.contains("Nothing to send"), "\(again.stdout)")
        let sums = received([server.log])
        #expect(sums.received == epochs.count && sums.new == epochs.count, "\(sums)")
    }

    /// `push --user`: the devices sent are that account's (a server's store pushing on to
    /// another server); the store's own user's device of the same name is not sent, and an
    /// account the store does not have is exit 66.
    @Test func pushActsForTheAccountItIsGiven() async throws {
        let dir = try Samples.temporaryDirectory()
        let (serverStore, token) = try await serverStore(dir)
        let epochs = try await recentRide(seconds: 300, minutesAgo: 60, in: dir)
        let local = dir + "/relay.sqlite"
        let added = try await run(
            ["user", "add", "bo", "--password-stdin", "--store", local],
            input: Data("correct horse battery staple".utf8))
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            try await run(["import", dir + "/ride.nmea", "--store", local, "--user", "bo", "--device-name", "bike"]).status
                == 0)
        // The store's own user has a bike too, with other points.
        let other = dir + "/other.nmea"
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        let start = formatter.string(from: Date().addingTimeInterval(-3 * 3600))
        #expect(try await run(["simulate", "--duration", "60", "--seed", "3", "--start", start, "-o", other]).status == 0)
        #expect(try await run(["import", other, "--store", local, "--device-name", "bike"]).status == 0)
        let server = try ServeCommandTests.RunningServer(store: serverStore)
        defer { _ = server.stop() }
        let url = server.url.absoluteString

        let nobody = try await run(["push", "--server", url, "--token", token, "--store", local, "--user", "nobody"])
        #expect(nobody.status == 66 && nobody.stderr.contains("There is no account nobody"), "\(nobody.stderr)")
        let push = try await run(
            ["push", "--server", url, "--token", token, "--store", local, "--user", "bo", "--device-name", "bike"])
        #expect(push.status == 0 && push.stdout.contains("Sent \(epochs.count) points of bike"), "\(push.stdout)")
        let bos = try TrackStore(path: local).readNow {
            try $0.points(account: "bo", fromMilliseconds: .min, toMilliseconds: .max)
        }.map {
            "\($0.fix.unixMilliseconds!) \($0.fix.coordinate!)"
        }
        #expect(bos.count == epochs.count)
        #expect(try serverPoints(serverStore) == bos, "the server has bo's points, not the store's own user's")
        // The upload cursor is the account's device's: the own user's bike still has all to send.
        let own = try await run(["push", "--server", url, "--token", token, "--store", local, "--dry-run"])
        #expect(own.status == 0 && own.stdout.contains("points of bike would be sent"), "\(own.stdout)")
        let again = try await run(
            ["push", "--server", url, "--token", token, "--store", local, "--user", "bo", "--device-name", "bike"])
        #expect(again.status == 0 && again.stdout.contains("Nothing to send"), "\(again.stdout)")
    }
}
