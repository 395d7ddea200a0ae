import Foundation
import Testing
import TrailbookTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `trailbook serve` as a process: it listens on loopback, answers, and stops on SIGTERM.
@Suite struct ServeCommandTests {
    /// A running server on a free loopback port, its base URL, and its standard error so far.
    final class RunningServer {
        let process = Process()
        let errors = Pipe()
        private(set) var url: URL!

        init(store: String) throws {
            process.executableURL = try trailbookBinary()
            process.arguments = ["serve", "--listen", "127.0.0.1:0", "--store", store, "--log-level", "debug"]
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // The port the system chose is in the start line.
            var text = ""
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
                if let range = text.range(of: #"listening on (http://127\.0\.0\.1:\d+)"#, options: .regularExpression) {
                    let address = text[range].split(separator: " ").last!
                    url = URL(string: String(address))
                    return
                }
            }
            process.terminate()
            throw RunError("trailbook serve did not say where it listens: \(text)")
        }

        /// Stops it with SIGTERM; its exit status and the rest of its standard error.
        func stop() -> (Int32, String) {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, rest)
        }
    }

    func get(_ url: URL) async throws -> (Int, String) {
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
    }

    @Test func healthAnswersAndSigtermStopsGracefully() async throws {
        let dir = try Samples.temporaryDirectory()
        let server = try RunningServer(store: dir + "/s.sqlite")
        let (status, body) = try await get(server.url.appendingPathComponent("api/health"))
        #expect(status == 200 && body.contains("\"status\":\"ok\""), "\(status) \(body)")
        let (missing, _) = try await get(server.url.appendingPathComponent("nope"))
        #expect(missing == 404)
        let (exit, log) = server.stop()
        #expect(exit == 0, "\(log)")
        #expect(log.contains("GET /api/health 200"), "one line per request at debug: \(log)")
        #expect(log.contains("stopped"))
    }

    @Test func badListenAddressIsUsage() throws {
        let r = try run(["serve", "--listen", "localhost"])
        #expect(r.status == 64 && r.stderr.contains("--listen takes HOST:PORT"))
    }
}

/// `trailbook user` and `trailbook device` end to end.
@Suite struct AccountCommandTests {
    @Test func usersAndDeviceTokens() throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        let short = try run(["user", "add", "ana", "--password-stdin", "--store", store], input: Data("short\n".utf8))
        #expect(short.status == 65 && short.stderr.contains("at least 15 are needed"), "\(short.stderr)")
        let named = try run(
            ["user", "add", "ana", "--password-stdin", "--store", store], input: Data("ana rides to the lake\n".utf8))
        #expect(named.status == 65 && named.stderr.contains("contains the account's name"))
        let added = try run(
            ["user", "add", "ana", "--password-stdin", "--store", store],
            input: Data("correct horse battery staple\n".utf8))
        #expect(added.status == 0, "\(added.stderr)")
        let again = try run(
            ["user", "add", "ana", "--password-stdin", "--store", store], input: Data("another long passphrase".utf8))
        #expect(again.status == 65 && again.stderr.contains("already an account ana"))
        #expect(try run(["user", "add", "bob", "--store", store]).status == 64, "no password on the command line")
        let list = try run(["user", "list", "--store", store, "--json"])
        #expect(list.stdout.contains("\"name\" : \"ana\"") && list.stdout.contains("\"password\" : true"))

        let device = try run(["device", "add", "phone", "--user", "ana", "--store", store, "--json"])
        #expect(device.status == 0, "\(device.stderr)")
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(device.stdout.utf8)) as? [String: String])?["token"])
        #expect(token.count == 52)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(bytes.range(of: Data(token.utf8)) == nil, "the token is not stored")
        #expect(try run(["device", "add", "phone", "--user", "nobody", "--store", store]).status == 66)
        #expect(try run(["device", "list", "--user", "ana", "--store", store]).stdout.contains("phone"))
        #expect(try run(["device", "revoke", "phone", "--user", "ana", "--store", store]).status == 0)
        let listed = try run(["device", "list", "--user", "ana", "--store", store])
        #expect(listed.stdout.contains("revoked"), "\(listed.stdout)")
        #expect(try run(["device", "revoke", "phone", "--user", "ana", "--store", store]).status == 66)
        #expect(try run(["user", "rm", "ana", "--store", store, "--yes"]).status == 0)
        #expect(try !run(["user", "list", "--store", store]).stdout.contains("ana"))
    }
}
