import ArgumentParser
import Foundation
import GPSCore
import Pipeline
import TrackModel
import TrailbookKit

/// `trailbook cue add|list|rm`: reminders at a place.
struct CueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cue",
        abstract: "Manage cues: reminders that come back as a cue event when arriving at or leaving a place.",
        discussion: """
            The cue event carries the text; an alert on cue sends it (trailbook alert add --on cue \
            --desktop). record, serve and import fire cues (docs/EVENTS.md).
            """,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a cue: --arrive PLACE or --depart PLACE.")
        @Argument(help: "What to be reminded of, e.g. \"buy bread\".") var text: String
        @Option(help: ArgumentHelp("Fire when arriving at this place.", valueName: "place")) var arrive: String?
        @Option(help: ArgumentHelp("Fire when leaving this place.", valueName: "place")) var depart: String?
        @Flag(help: "Fire the first time only.") var once = false
        @Flag(help: "Print the cue as JSON.") var json = false
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            if (arrive == nil) == (depart == nil) {
                throw ValidationError("Give one of --arrive PLACE and --depart PLACE.")
            }
        }

        func run() async throws {
            let cue = try await CueService(
                store: try await accountOptions.having(storeOptions.open()), account: accountOptions.user
            ).add(
                text: text, place: arrive ?? depart!, moment: arrive != nil ? .arrive : .depart, once: once)
            if json { return try printJSON(CueJSON(cue)) }
            print("Added \(CueJSON.describe(cue)).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the cues.")
        @Flag(help: "Print {\"cues\": [{\"id\", \"text\", \"place\", \"on\", \"once\", \"fired\"}]}.") var json = false
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let cues = try await CueService(
                store: try await accountOptions.having(storeOptions.open()), account: accountOptions.user
            ).list()
            if json { return try printJSON(["cues": cues.map(CueJSON.init)]) }
            if cues.isEmpty { print("No cues yet; trailbook cue add TEXT --arrive PLACE adds one.") }
            for cue in cues { print(CueJSON.describe(cue)) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a cue.")
        @Argument(help: "The cue's id (cue list shows it).") var id: Int64
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await CueService(
                store: try await accountOptions.having(storeOptions.open()), account: accountOptions.user
            )
            .remove(
                id)
            print("Removed cue \(id).")
        }
    }
}

/// `trailbook task add|list|done|rm`: things due at a time.
struct TaskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "task",
        abstract: "Manage tasks: a task.due event at a time, once or repeating.",
        discussion: """
            A running trailbook record fires task.due at the due time (checked every second); one \
            that fell due while nothing ran fires once when record starts again, with late_s. An \
            alert on task.due sends it (docs/EVENTS.md).
            """,
        subcommands: [Add.self, List.self, Done.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a task due at --at.")
        @Argument(help: "What is due, e.g. \"water the plants\".") var text: String
        @Option(help: ArgumentHelp("When (\(LocalTime.accepted)).", valueName: "time")) var at: String
        @Option(
            name: .customLong("repeat"),
            help: ArgumentHelp(
                "daily, weekly, or an RRULE (FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, BYDAY, UNTIL).",
                valueName: "rule"))
        var rule: String?
        @Flag(help: "Print the task as JSON.") var json = false
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func run() async throws {
            let zone = try zoneOptions.zone()
            let task = try await TaskService(
                store: try await accountOptions.having(storeOptions.openOrCreate()), account: accountOptions.user
            ).add(
                text: text, at: at, rule: rule, zone: zone)
            if json { return try printJSON(TaskJSON(task)) }
            print("Added \(TaskJSON.describe(task, zone: zone)).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the tasks.")
        @Flag(
            help:
                "Print {\"tasks\": [{\"id\", \"text\", \"due\", \"repeat\", \"time_zone\", \"last_fired\", \"done\"}]}."
        )
        var json = false
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func run() async throws {
            let zone = try zoneOptions.zone()
            let tasks = try await TaskService(
                store: try await accountOptions.having(storeOptions.open()), account: accountOptions.user
            ).list()
            if json { return try printJSON(["tasks": tasks.map(TaskJSON.init)]) }
            if tasks.isEmpty { print("No tasks yet; trailbook task add TEXT --at TIME adds one.") }
            for task in tasks { print(TaskJSON.describe(task, zone: zone)) }
        }
    }

    struct Done: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "done", abstract: "Mark a task done: it fires no more.")
        @Argument(help: "The task's id (task list shows it).") var id: Int64
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await TaskService(
                store: try await accountOptions.having(storeOptions.open()), account: accountOptions.user
            )
            .done(
                id)
            print("Task \(id) is done.")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a task.")
        @Argument(help: "The task's id.") var id: Int64
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await TaskService(
                store: try await accountOptions.having(storeOptions.open()), account: accountOptions.user
            )
            .remove(
                id)
            print("Removed task \(id).")
        }
    }
}

/// `trailbook alert add|list|rm|test`: events sent to a webhook, ntfy, the desktop or MQTT.
struct AlertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alert",
        abstract: "Manage alerts: events sent to a webhook, ntfy, the desktop or an MQTT broker.",
        discussion: """
            record and serve send the alerts of the events they detect (import does not: its events \
            are past). Deliveries wait in an outbox in the store: a receiver that is down gets them \
            when it is back (tried again after 1, 2, 4 ... s up to [alerts] retry_max), each event \
            once per alert; one not delivered within [alerts] give_up_after is dropped with a logged \
            reason. docs/EVENTS.md has the payloads.
            """,
        subcommands: [Add.self, List.self, Log.self, Remove.self, Test.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an alert with one channel.")
        @Option(
            help: ArgumentHelp(
                "The event types it takes (comma-separated or repeated): "
                    + TrailEventType.allCases.map(\.rawValue).joined(separator: ", ") + ".",
                valueName: "type"))
        var on: [String] = []
        @Option(help: "Only events at this place.") var place: String?
        @Option(help: "Only events of this device.") var device: String?
        @Option(
            help: ArgumentHelp("Send nothing between these local times, e.g. 22:00-07:00.", valueName: "HH:MM-HH:MM"))
        var quiet: String?
        @Option(help: ArgumentHelp("Send nothing within this long of the last one sent.", valueName: "seconds"))
        var cooldown = 0.0
        @Option(help: ArgumentHelp("POST the event as JSON to this URL.", valueName: "url")) var webhook: String?
        @Option(help: ArgumentHelp("Sign the webhook's body: X-Trailbook-Signature: sha256=HMAC.", valueName: "secret"))
        var secret: String?
        @Option(
            help: ArgumentHelp("Publish to ntfy: the server and topic, e.g. https://ntfy.sh/mine.", valueName: "url"))
        var ntfy: String?
        @Flag(help: "Show a desktop notification (notify-send, from libnotify-bin).") var desktop = false
        @Option(help: ArgumentHelp("Publish the JSON to an MQTT broker (QoS 1).", valueName: "mqtt://host:port/topic"))
        var mqtt: String?
        @Option(help: "The alert of this account (a server's user); default: this store's own.") var user: String?
        @Flag(help: "Print the alert as JSON.") var json = false
        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            do {
                _ = try AlertService.channel(webhook: webhook, secret: secret, ntfy: ntfy, desktop: desktop, mqtt: mqtt)
                if try EventService.types(on) == nil { throw ScheduleError.noTypes }
            } catch let error as ServiceFailure {
                throw ValidationError(error.description)
            }
        }

        func run() async throws {
            let channel = try AlertService.channel(
                webhook: webhook, secret: secret, ntfy: ntfy, desktop: desktop, mqtt: mqtt)
            let alert = try await AlertService(store: try storeOptions.openOrCreate(), account: user).add(
                types: try EventService.types(on), place: place, device: device, quiet: quiet, cooldown: cooldown,
                channel: channel)
            if json { return try printJSON(AlertJSON(alert)) }
            print("Added \(AlertJSON.describe(alert)).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the alerts and their deliveries.")
        @Option(help: "The alerts of this account; default: this store's own.") var user: String?
        @Flag(
            help: """
                Print {"alerts": [{"id", "on", "place", "device", "quiet", "cooldown_s", "channel", "target", \
                "signed", "waiting", "delivered", "dropped"}]}.
                """)
        var json = false
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let alerts = try await AlertService(store: try storeOptions.open(), account: user).list()
            if json { return try printJSON(["alerts": alerts.map(AlertJSON.init)]) }
            if alerts.isEmpty { print("No alerts yet; trailbook alert add --on TYPE --desktop adds one.") }
            for alert in alerts { print(AlertJSON.describe(alert)) }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "List the alerts' deliveries, newest first: delivered, waiting, or dropped with why.",
            discussion: "An event that reached the store later than alerts.max_delay is listed as \"late, not sent\".")
        @Option(help: "The deliveries of this account's alerts; default: this store's own.") var user: String?
        @Option(help: "How many, newest first.") var limit = 50
        @Flag(
            help: """
                Print {"deliveries": [{"id", "alert", "title", "event_time", "queued", "state", "delivered", \
                "attempts", "reason"}]}.
                """)
        var json = false
        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            if limit < 1 { throw ValidationError("--limit takes 1 or more.") }
        }

        func run() async throws {
            let deliveries = try await AlertService(store: try storeOptions.open(), account: user).log(limit: limit)
                .map(DeliveryJSON.init)
            if json { return try printJSON(["deliveries": deliveries]) }
            if deliveries.isEmpty { print("No deliveries yet.") }
            for d in deliveries { print(d.line) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove an alert (and what waits in its outbox).")
        @Argument(help: "The alert's id (alert list shows it).") var id: Int64
        @Option(help: "The alert of this account; default: this store's own.") var user: String?
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await AlertService(store: try storeOptions.open(), account: user).remove(id)
            print("Removed alert \(id).")
        }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Send a test message to an alert's channel now (not through the outbox).",
            discussion: "Exit 0 when the receiver took it, 69 when it did not (the sentence says why).")
        @Argument(help: "The alert's id.") var id: Int64
        @Option(help: "The alert of this account; default: this store's own.") var user: String?
        @Flag(help: "Print the message sent, as JSON.") var json = false
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var configOptions: ConfigOptions

        func run() async throws {
            let config = try configOptions.load()
            let storeOptions = self.storeOptions
            let store = try await storeOptions.opened()
            let message = try await AlertService(store: store, account: user).test(
                id, sender: AlertSender(timeout: config.pipeline.alerts.timeout), zone: config.timeZone)
            if json { return print(message.body) }
            print("Sent a test of alert \(id): \(message.title).")
        }
    }
}
