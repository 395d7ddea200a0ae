import ArgumentParser
import Foundation
import GPSCore
import TrackModel
import TrailbookKit

/// Reads a password from standard input: the whole input, without the line end that ends it.
enum PasswordInput {
    static func read() throws -> String {
        guard !Console.current.inputIsTerminal else {
            throw CommandFailure(
                message:
                    "Give the password on standard input, e.g. printf '%s' \"$PASSWORD\" | trailbook user add NAME --password-stdin.",
                code: .usage)
        }
        return TextInput.withoutFinalLineEnd(String(decoding: Console.current.readInput(), as: UTF8.self))
    }
}

/// `trailbook user add|list|passwd|rm`: accounts of the sharing server.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage the accounts of the sharing server (trailbook serve).",
        discussion: """
            Passwords (NIST SP 800-63B rev. 4): at least 15 characters, up to 256, any Unicode \
            (compared after NFKC normalisation); no composition rules and no expiry; refused when \
            common or when they contain the account's name or "trailbook" (exit 65 with the rule). \
            Stored as bcrypt of their SHA-256, never as given. The password is read from standard \
            input (--password-stdin), never from the command line.
            """,
        subcommands: [Add.self, List.self, Passwd.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an account.")
        @Argument(help: "The account's name (letters, digits, '.', '_', '-').") var name: String
        @Flag(help: "Read the password from standard input.") var passwordStdin = false
        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            if !passwordStdin { throw ValidationError("Give --password-stdin and the password on standard input.") }
        }

        func run() async throws {
            let password = try PasswordInput.read()
            try await AccountService(store: try storeOptions.openOrCreate()).addAccount(name, password: password)
            print("account \(name) added")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the accounts.")
        @Flag(help: "Print one JSON document.") var json = false
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        struct Entry: Encodable {
            var name: String
            var created: String
            var password: Bool
        }

        func run() async throws {
            let zone = try zoneOptions.zone()
            let accounts = try await AccountService(store: try storeOptions.open()).accounts()
            if json {
                try printJSON([
                    "accounts": accounts.map {
                        Entry(name: $0.name, created: LocalTime.utc($0.createdMilliseconds), password: $0.hasPassword)
                    }
                ])
                return
            }
            for a in accounts {
                print(
                    "\(a.name)  created \(LocalTime.format(a.createdMilliseconds, zone: zone))"
                        + (a.hasPassword ? "" : "  (no password: the local account)"))
            }
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passwd", abstract: "Set an account's password.")
        @Argument(help: "The account's name.") var name: String
        @Flag(help: "Read the password from standard input.") var passwordStdin = false
        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            if !passwordStdin { throw ValidationError("Give --password-stdin and the password on standard input.") }
        }

        func run() async throws {
            let password = try PasswordInput.read()
            try await AccountService(store: try storeOptions.open()).changePassword(of: name, to: password)
            print("password of \(name) changed")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove an account with its devices, points, rides and records, for good.")
        @Argument(help: "The account's name.") var name: String
        @Flag(help: "Do not ask.") var yes = false
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let service = AccountService(store: try storeOptions.open())
            guard try await service.accounts().contains(where: { $0.name == name }) else {
                throw AccountError.noAccount(name)
            }
            try Confirmation.require(
                "The account \(name) with its devices and everything they recorded will be removed for good.", yes: yes)
            try await service.removeAccount(name)
            print("account \(name) removed")
        }
    }
}

/// `trailbook device add|list|revoke`: the phones and bike computers that send to the server.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Manage the devices (and their tokens) that send points to the sharing server.",
        discussion: """
            A device's token is printed once, when it is added: give it to the phone app. Only its \
            SHA-256 is stored. trailbook devices (with an s) lists the receivers plugged in here.
            """,
        subcommands: [Add.self, List.self, Revoke.self, Messages.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a device to an account and print its token.")
        @Argument(help: "The device's name, e.g. phone.") var name: String
        @Option(help: "The account it belongs to.") var user: String
        @Flag(help: "Print {\"user\", \"device\", \"token\"} as JSON.") var json = false
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let token = try await AccountService(store: try storeOptions.open()).addDevice(name, account: user)
            if json {
                try printJSON(["user": user, "device": name, "token": token])
            } else {
                print("device \(name) of \(user); its token (shown only now):")
                print(token)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List an account's devices.")
        @Option(help: "The account.") var user: String
        @Flag(help: "Print one JSON document.") var json = false
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        struct Entry: Encodable {
            var name: String
            var created: String
            var token: Bool
            var revoked: String?
        }

        func run() async throws {
            let zone = try zoneOptions.zone()
            let devices = try await AccountService(store: try storeOptions.open()).devices(of: user)
            if json {
                try printJSON([
                    "devices": devices.map {
                        Entry(
                            name: $0.name, created: LocalTime.utc($0.createdMilliseconds), token: $0.hasToken,
                            revoked: $0.revokedMilliseconds.map(LocalTime.utc))
                    }
                ])
                return
            }
            if devices.isEmpty { print("\(user) has no devices; trailbook device add NAME --user \(user) adds one.") }
            for d in devices {
                let state =
                    d.revokedMilliseconds.map { "revoked \(LocalTime.format($0, zone: zone))" }
                    ?? (d.hasToken ? "token live" : "no token (records or imports here)")
                print("\(d.name)  created \(LocalTime.format(d.createdMilliseconds, zone: zone))  \(state)")
            }
        }
    }

    struct Messages: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "messages",
            abstract:
                "List what an account's phone apps sent that is not a position (OwnTracks transitions, waypoints, lwt)."
        )
        @Option(help: "The account.") var user: String
        @Flag(help: "Print {\"messages\": [{\"device\", \"received\", \"type\", \"message\"}]} as JSON.") var json =
            false
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func run() async throws {
            let zone = try zoneOptions.zone()
            let messages = try await AccountService(store: try storeOptions.open()).messages(of: user)
            if json {
                let entries: [[String: Any]] = messages.map {
                    [
                        "device": $0.device, "received": LocalTime.utc($0.receivedMilliseconds), "type": $0.type,
                        "message": (try? JSONSerialization.jsonObject(with: Data($0.body.utf8))) ?? $0.body,
                    ]
                }
                let data = try JSONSerialization.data(
                    withJSONObject: ["messages": entries],
                    options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            if messages.isEmpty { print("\(user)'s devices sent no transitions, waypoints or lwt messages.") }
            for m in messages {
                print("\(LocalTime.format(m.receivedMilliseconds, zone: zone))  \(m.device)  \(m.type)  \(m.body)")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a device's token at once (its points stay).")
        @Argument(help: "The device's name.") var name: String
        @Option(help: "The account it belongs to.") var user: String
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await AccountService(store: try storeOptions.open()).revokeDevice(name, account: user)
            print("token of \(name) (\(user)) revoked")
        }
    }
}
