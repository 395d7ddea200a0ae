import Crypto
import Foundation
import GPSCore
import TrackModel

/// Why a delivery did not reach its receiver, in a few words (logged, kept with the delivery).
public struct AlertSendError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// Sends one alert message over its channel and returns when the receiver took it: a webhook
/// or ntfy answered 2xx, the broker acknowledged the MQTT publish (QoS 1), `notify-send` exited 0.
public struct AlertSender: Sendable {
    let timeout: Double
    /// The `notify-send` to run (`$TRAILBOOK_NOTIFY_SEND` when set).
    let notifySend: String

    public init(timeout: Double, environment: [String: String] = Console.current.environment) {
        self.timeout = timeout
        notifySend = environment["TRAILBOOK_NOTIFY_SEND"] ?? "notify-send"
    }

    /// The value of `X-Trailbook-Signature` for `body` signed with `secret`.
    public static func signature(_ body: Data, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }

    public func send(_ message: AlertMessage, over channel: AlertChannel) async throws(AlertSendError) {
        let body = Data(message.body.utf8)
        switch channel {
        case .webhook(let url, let secret):
            var headers = ["Content-Type": "application/json", "User-Agent": "Trailbook"]
            if let secret { headers["X-Trailbook-Signature"] = Self.signature(body, secret: secret) }
            try await post(url, body: body, headers: headers)
        case .ntfy(let url):
            try await post(
                url, body: Data(message.message.utf8),
                headers: [
                    "Title": message.title, "Priority": Self.priority(message.event.type),
                    "Tags": Self.tags(message.event.type),
                ])
        case .desktop:
            try await run(
                notifySend,
                [
                    "--app-name=Trailbook",
                    "--urgency=\(Self.priority(message.event.type) == "default" ? "normal" : "critical")",
                    message.title, message.message,
                ])
        case .mqtt(let host, let port, let topic):
            let timeout = self.timeout
            try await Blocking.run { () throws(AlertSendError) in
                try MQTTPublish.publish(body, topic: topic, host: host, port: port, timeout: timeout)
            }
        }
    }

    /// ntfy's priority (and the desktop's urgency): high for what may need someone to act.
    static func priority(_ type: String) -> String {
        if type == "device.alarm" { return "urgent" }
        return ["battery.low", "device.offline", "fix.lost", "task.due", "cue"].contains(type) ? "high" : "default"
    }

    /// ntfy's tags: an emoji short code (ntfy shows it as the icon) and the event type.
    static func tags(_ type: String) -> String {
        let emoji: String
        switch type {
        case "place.arrive", "place.depart", "friend.arrive", "friend.depart": emoji = "round_pushpin"
        case "battery.low": emoji = "battery"
        case "device.alarm": emoji = "rotating_light"
        case "device.offline", "device.disconnected", "fix.lost": emoji = "warning"
        case "cue": emoji = "bell"
        case "task.due": emoji = "calendar"
        default: emoji = "information_source"
        }
        return "\(emoji),\(type)"
    }

    func post(_ url: URL, body: Data, headers: [String: String]) async throws(AlertSendError) {
        let exchange = HTTPExchange(
            "POST", url, headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, body: body,
            timeout: timeout)
        let answer: HTTPExchange.Answer
        do {
            answer = try await exchange.send()
        } catch {
            throw AlertSendError("\(url.host ?? url.absoluteString) did not answer: \(error)")
        }
        let status = answer.status
        guard (200..<300).contains(status) else {
            let text = String(decoding: answer.body.prefix(120), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw AlertSendError(
                "\(url.host ?? url.absoluteString) answered \(status)\(text.isEmpty ? "" : ": \(text)")")
        }
    }

    /// Runs `program` (looked up on PATH) and waits up to the timeout for it to exit 0.
    func run(_ program: String, _ arguments: [String]) async throws(AlertSendError) {
        let timeout = self.timeout
        try await Blocking.run { () throws(AlertSendError) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            do { try process.run() } catch { throw AlertSendError("cannot run \(program): \(error)") }
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning {
                process.terminate()
                throw AlertSendError("\(program) did not finish in \(Int(timeout)) s")
            }
            guard process.terminationStatus == 0 else {
                let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if process.terminationStatus == 127 {
                    throw AlertSendError("\(program) is missing: install it with `apt-get install libnotify-bin`")
                }
                throw AlertSendError("\(program) exited \(process.terminationStatus)\(text.isEmpty ? "" : ": \(text)")")
            }
        }
    }
}
