import Foundation
import Testing
import TrailbookTestSupport

/// The database going away under a running server: the phone's posts get 503 (the apps send
/// them again later), the server logs the outage once as it starts and once as it ends, takes
/// posts again once the database is back, and every point it acknowledged is in the store.
@Suite struct StoreOutageTests {
    @Test func theDatabaseAwayForTenSecondsLosesNothingAcknowledged() async throws {
        let cluster = try PostgresCluster.ownCluster()
        let store = try cluster.newDatabase()
        let added = try await run(
            ["user", "add", "ana", "--password-stdin", "--store", store],
            input: Data("correct horse battery staple".utf8))
        try #require(added.status == 0, "\(added.stderr)")
        let token = try await deviceToken("phone", user: "ana", store: store)
        let server = try ServeCommandTests.RunningServer(store: store)

        // A phone posting a point every 0.2 s, sending what was refused again (oldest first),
        // while the database stops for 10 s two seconds in.
        let first = Int(Date().timeIntervalSince1970) - 3600
        var pending: [Int] = []
        var acknowledged: [Int] = []
        var refused = 0
        var made = 0
        // The outage runs on a thread of its own: the tests running beside this one may keep
        // Swift's few cooperative threads busy, and the outage must start and end on time.
        let phase = Locked("before")
        let outage = Thread {
            Thread.sleep(forTimeInterval: 2)
            phase.withLock { $0 = (try? cluster.stop()) == nil ? "failed to stop" : "away" }
            Thread.sleep(forTimeInterval: 10)
            phase.withLock { $0 = (try? cluster.start()) == nil ? "failed to start" : "back" }
        }
        outage.start()
        // The phone's loop blocks this thread on purpose (see the outage above): posting until
        // 4 s after the database is back, then sending the backlog.
        var back: Date?
        let giveUp = Date().addingTimeInterval(90)
        while Date() < giveUp {
            let now = phase.withLock { $0 }
            if now == "back" && back == nil { back = Date() }
            let posting = back.map { Date().timeIntervalSince($0) < 4 } ?? true
            if !posting && pending.isEmpty { break }
            if posting {
                pending.append(first + made)
                made += 1
            }
            let t = pending[0]
            let lon = 8.54 + Double(t - first) * 2e-5
            let url = URL(string: "\(server.url!)/osmand?id=\(token)&timestamp=\(t)&lat=47.37&lon=\(lon)&speed=1.5")!
            let (status, body) = try HTTP.requestBlocking(url)
            if status == 200 {
                acknowledged.append(pending.removeFirst())
            } else {
                #expect(status == 503, "refused while the database is away: \(status) \(body)")
                refused += 1
            }
            usleep(posting ? 200_000 : 20_000)  // this thread, as above
        }
        #expect(phase.withLock { $0 } == "back", "the database stopped and started again")
        print("outage: \(acknowledged.count) points acknowledged, \(refused) posts answered 503 meanwhile")
        let (exit, log) = server.stop()
        #expect(exit == 0, "\(log)")
        #expect(pending.isEmpty, "the phone's backlog went once the database was back: \(pending.count) left")
        #expect(refused > 10, "posts were refused while the database was away: \(refused)")
        let stored = try storeRows(store, "SELECT t / 1000 FROM position ORDER BY t").split(separator: "\n").compactMap
        {
            Int($0)
        }
        #expect(
            stored == acknowledged.sorted(),
            "every acknowledged point is stored, once: \(stored.count) stored, \(acknowledged.count) acknowledged")
        let down = log.components(separatedBy: "the store does not answer").count - 1
        let up = log.components(separatedBy: "the store answers again").count - 1
        #expect(down == 1 && up == 1, "the outage logged once as it started and once as it ended:\n\(log)")
    }
}
