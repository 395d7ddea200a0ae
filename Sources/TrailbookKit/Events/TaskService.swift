import Foundation
import GPSCore
import Logging
import TrackModel

/// Tasks (`task add|list|done|rm`): a text due at a time, once or by a rule; a running
/// `record` fires `task.due` when one is due (one missed while nothing ran fires once, late).
public struct TaskService: Sendable {
    public let store: any TrackStoring
    public let account: String?

    public init(store: any TrackStoring, account: String? = nil) {
        self.store = store
        self.account = account
    }

    /// Adds a task due at `at` (a time as ``LocalTime`` reads it, in `zone`). A repeating task
    /// whose first time is past is due at its next occurrence.
    public func add(text: String, at: String, rule ruleText: String?, zone: TimeZone, now: Int64 = UTCTimestamp.now())
        async throws -> ScheduledTask
    {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw ScheduleError.emptyText }
        guard var due = LocalTime.parse(at, zone: zone, now: Date(timeIntervalSince1970: Double(now) / 1000)) else {
            throw ScheduleError.badTime(at, why: LocalTime.problem(at, zone: zone))
        }
        let rule = try TaskRule.parse(ruleText ?? "")
        if due <= now {
            guard let rule else { throw ScheduleError.past(LocalTime.format(due, zone: zone)) }
            guard let next = rule.next(from: due, after: now, zone: zone) else {
                throw ScheduleError.badRule(ruleText ?? "", why: "it has no occurrence to come")
            }
            due = next
        }
        var task = ScheduledTask(text: text, dueMilliseconds: due, rule: ruleText ?? "", timeZone: zone.identifier)
        guard let id = try await store.write({ [task, account] in try $0.addTask(task, account: account) }) else {
            throw ScheduleError.noAccount(account ?? "me")
        }
        task.id = id
        return task
    }

    public func list() async throws -> [ScheduledTask] { try await store.read { try $0.tasks(account: account) } }

    public func done(_ id: Int64, now: Int64 = UTCTimestamp.now()) async throws {
        guard try await store.write({ try $0.completeTask(id, account: account, atMilliseconds: now) }) else {
            throw ScheduleError.missing(.task, id)
        }
    }

    public func remove(_ id: Int64) async throws {
        guard try await store.write({ try $0.removeScheduled(.task, id: id, account: account) }) else {
            throw ScheduleError.missing(.task, id)
        }
    }

    /// Fires the tasks due at `now` through `outlet` as `device`'s `task.due` events: at the
    /// due time, with `task` = its id and `late_s` when fired more than a minute late; each
    /// moves on to its next occurrence after `now` (missed ones in between are not fired).
    /// Returns the events fired. Another process that fired a task first wins (it fires once).
    @discardableResult
    public func fireDue(now: Int64, outlet: EventOutlet, device: DeviceID, deviceName: String) async throws
        -> [TrailEvent]
    {
        let account = self.account
        // One unit of work: the events stored and the tasks moved on together.
        return try await store.write { tx in
            var fired: [TrailEvent] = []
            for task in try tx.tasks(account: account) {
                guard task.doneMilliseconds == nil, let due = task.dueMilliseconds, due <= now else { continue }
                var details = ["task": Double(task.id)]
                if now - due > 60_000 { details["late_s"] = Double((now - due) / 1000) }
                let event = TrailEvent(milliseconds: due, type: .taskDue, text: task.text, details: details)
                let zone = TimeZone(identifier: task.timeZone) ?? .current
                let next = (try? TaskRule.parse(task.rule))??.next(from: due, after: now, zone: zone)
                try outlet.take([event], device: device, deviceName: deviceName, in: tx)
                if try tx.advanceTask(task.id, from: due, to: next) { fired.append(event) }
            }
            return fired
        }
    }
}
