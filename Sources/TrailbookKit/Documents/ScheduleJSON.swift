import Foundation
import GPSCore
import TrackModel

/// A cue as `cue list --json` prints it.
public struct CueJSON: Encodable, Equatable, Sendable {
    public var id: Int64
    public var text: String
    public var place: String
    /// `arrive` or `depart`.
    public var on: String
    public var once: Bool
    public var fired: String?

    public init(_ cue: Cue) {
        id = cue.id
        text = cue.text
        place = cue.place
        on = cue.moment.rawValue
        once = cue.once
        fired = cue.firedMilliseconds.map(LocalTime.utc)
    }

    public static func describe(_ cue: Cue) -> String {
        var line = "cue \(cue.id): \"\(cue.text)\" on \(cue.moment == .arrive ? "arriving at" : "leaving") \(cue.place)"
        if cue.once {
            line += cue.firedMilliseconds == nil ? ", once" : ", once (fired \(LocalTime.utc(cue.firedMilliseconds!)))"
        }
        return line
    }
}

/// A task as `task list --json` prints it.
public struct TaskJSON: Encodable, Equatable, Sendable {
    public var id: Int64
    public var text: String
    /// The next time it is due, UTC (null: nothing more to fire).
    public var due: String?
    public var `repeat`: String?
    public var timeZone: String
    public var lastFired: String?
    public var done: String?

    enum CodingKeys: String, CodingKey {
        case id, text, due, `repeat`
        case timeZone = "time_zone"
        case lastFired = "last_fired"
        case done
    }

    public init(_ task: ScheduledTask) {
        id = task.id
        text = task.text
        due = task.dueMilliseconds.map(LocalTime.utc)
        `repeat` = task.rule.isEmpty ? nil : task.rule
        timeZone = task.timeZone
        lastFired = task.firedMilliseconds.map(LocalTime.utc)
        done = task.doneMilliseconds.map(LocalTime.utc)
    }

    public static func describe(_ task: ScheduledTask, zone: TimeZone) -> String {
        var line = "task \(task.id): \"\(task.text)\""
        if task.doneMilliseconds != nil {
            line += ", done"
        } else if let due = task.dueMilliseconds {
            line += ", due \(LocalTime.format(due, zone: zone))"
        } else {
            line += ", fired \(task.firedMilliseconds.map { LocalTime.format($0, zone: zone) } ?? "")"
        }
        if !task.rule.isEmpty { line += ", repeats \(task.rule)" }
        if task.timeZone != zone.identifier { line += " (\(task.timeZone))" }
        return line
    }
}

/// An alert as `alert list --json` prints it.
public struct AlertJSON: Encodable, Equatable, Sendable {
    public var id: Int64
    public var on: [String]
    public var place: String?
    public var device: String?
    public var quiet: String?
    public var cooldownS: Double
    public var channel: String
    public var target: String?
    public var signed: Bool
    public var waiting: Int
    public var delivered: Int
    public var dropped: Int

    enum CodingKeys: String, CodingKey {
        case id, on, place, device, quiet
        case cooldownS = "cooldown_s"
        case channel, target, signed, waiting, delivered,
            dropped
    }

    public init(_ alert: Alert) {
        id = alert.id
        on = alert.types.map(\.rawValue)
        place = alert.place
        device = alert.device
        quiet = alert.quiet
        cooldownS = alert.cooldown
        channel = alert.channel.kind
        target = alert.channel.target.isEmpty ? nil : alert.channel.target
        signed = alert.channel.secret != nil
        waiting = alert.counts.waiting
        delivered = alert.counts.delivered
        dropped = alert.counts.dropped
    }

    public static func describe(_ alert: Alert) -> String {
        var line = "alert \(alert.id): \(alert.types.map(\.rawValue).joined(separator: ","))"
        if let place = alert.place { line += " at \(place)" }
        if let device = alert.device { line += " of \(device)" }
        line += " → \(alert.channel.kind)"
        if !alert.channel.target.isEmpty { line += " \(alert.channel.target)" }
        if alert.channel.secret != nil { line += " (signed)" }
        if let quiet = alert.quiet { line += ", quiet \(quiet)" }
        if alert.cooldown > 0 { line += ", cooldown \(EventColumns.number(alert.cooldown)) s" }
        let c = alert.counts
        line += "; \(c.delivered) delivered, \(c.waiting) waiting, \(c.dropped) dropped"
        return line
    }
}
