import Foundation
import GPSCore
internal import GRDB
import TrackModel

extension SQLiteStoring {
    public func addCue(_ cue: Cue, account: String?) throws -> Int64? {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return nil }
            try db.execute(
                sql: "INSERT INTO cue (user_id, text, place, moment, once, created_ms) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [user, cue.text, cue.place, cue.moment.rawValue, cue.once, UTCTimestamp.now()])
            return db.lastInsertedRowID
        }
    }

    public func cues(account: String?) throws -> [Cue] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT c.* FROM cue c JOIN user u ON u.id = c.user_id WHERE u.name = ? ORDER BY c.id",
                arguments: [account ?? TrackStore.localUser]
            ).map {
                Cue(
                    id: $0["id"], text: $0["text"], place: $0["place"],
                    moment: CueMoment(rawValue: $0["moment"]) ?? .arrive, once: $0["once"],
                    firedMilliseconds: $0["fired_ms"])
            }
        }
    }

    public func markCueFired(_ id: Int64, atMilliseconds t: Int64) throws {
        try pool.write { db in
            try db.execute(
                sql: "UPDATE cue SET fired_ms = max(coalesce(fired_ms, ?), ?) WHERE id = ?", arguments: [t, t, id])
        }
    }

    public func addTask(_ task: ScheduledTask, account: String?) throws -> Int64? {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return nil }
            try db.execute(
                sql: "INSERT INTO task (user_id, text, due_ms, rule, time_zone, created_ms) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [user, task.text, task.dueMilliseconds, task.rule, task.timeZone, UTCTimestamp.now()])
            return db.lastInsertedRowID
        }
    }

    public func tasks(account: String?) throws -> [ScheduledTask] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT k.* FROM task k JOIN user u ON u.id = k.user_id WHERE u.name = ? ORDER BY k.id",
                arguments: [account ?? TrackStore.localUser]
            ).map {
                ScheduledTask(
                    id: $0["id"], text: $0["text"], dueMilliseconds: $0["due_ms"], rule: $0["rule"],
                    timeZone: $0["time_zone"], firedMilliseconds: $0["fired_ms"], doneMilliseconds: $0["done_ms"])
            }
        }
    }

    public func advanceTask(_ id: Int64, from due: Int64, to next: Int64?) throws -> Bool {
        try pool.write { db in
            try db.execute(
                sql: "UPDATE task SET due_ms = ?, fired_ms = ? WHERE id = ? AND due_ms = ? AND done_ms IS NULL",
                arguments: [next, due, id, due])
            return db.changesCount > 0
        }
    }

    public func completeTask(_ id: Int64, account: String?, atMilliseconds t: Int64) throws -> Bool {
        try pool.write { db in
            try db.execute(
                sql: """
                    UPDATE task SET done_ms = coalesce(done_ms, ?)
                    WHERE id = ? AND user_id = (SELECT id FROM user WHERE name = ?)
                    """, arguments: [t, id, account ?? TrackStore.localUser])
            return db.changesCount > 0
        }
    }

    public func addAlert(_ alert: Alert, account: String?) throws -> Int64? {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return nil }
            try db.execute(
                sql: """
                    INSERT INTO alert (user_id, types, place, device, quiet, cooldown_s, channel, target, secret, created_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    user, AlertColumns.types(alert.types), alert.place, alert.device, alert.quiet, alert.cooldown,
                    alert.channel.kind, alert.channel.target, alert.channel.secret, UTCTimestamp.now(),
                ])
            return db.lastInsertedRowID
        }
    }

    public func alerts(account: String?) throws -> [Alert] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT a.*,
                        (SELECT count(*) FROM outbox o WHERE o.alert_id = a.id AND o.delivered_ms IS NULL
                            AND o.dropped IS NULL) AS waiting,
                        (SELECT count(*) FROM outbox o WHERE o.alert_id = a.id AND o.delivered_ms IS NOT NULL) AS delivered,
                        (SELECT count(*) FROM outbox o WHERE o.alert_id = a.id AND o.dropped IS NOT NULL) AS dropped
                    FROM alert a JOIN user u ON u.id = a.user_id WHERE u.name = ? ORDER BY a.id
                    """, arguments: [account ?? TrackStore.localUser]
            ).compactMap {
                AlertColumns.alert(
                    id: $0["id"], types: $0["types"], place: $0["place"], device: $0["device"], quiet: $0["quiet"],
                    cooldown: $0["cooldown_s"], channel: $0["channel"], target: $0["target"], secret: $0["secret"],
                    lastMilliseconds: $0["last_ms"],
                    counts: DeliveryCounts(waiting: $0["waiting"], delivered: $0["delivered"], dropped: $0["dropped"]))
            }
        }
    }

    public func removeScheduled(_ item: ScheduleItem, id: Int64, account: String?) throws -> Bool {
        try pool.write { db in
            try db.execute(
                sql: "DELETE FROM \(item.rawValue) WHERE id = ? AND user_id = (SELECT id FROM user WHERE name = ?)",
                arguments: [id, account ?? TrackStore.localUser])
            return db.changesCount > 0
        }
    }

    public func enqueue(_ deliveries: [NewDelivery], nowMilliseconds now: Int64) throws -> Int {
        guard !deliveries.isEmpty else { return 0 }
        return try pool.write { db in
            var added = 0
            for d in deliveries {
                try db.execute(
                    sql: """
                        INSERT INTO outbox (alert_id, key, payload, created_ms, next_ms, dropped) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (alert_id, key) DO NOTHING
                        """, arguments: [d.alert, d.key, d.payload, now, now, d.dropped])
                added += db.changesCount
                try db.execute(
                    sql: "UPDATE alert SET last_ms = max(coalesce(last_ms, ?), ?) WHERE id = ?",
                    arguments: [d.eventMilliseconds, d.eventMilliseconds, d.alert])
            }
            return added
        }
    }

    public func hasDueDeliveries(nowMilliseconds now: Int64) throws -> Bool {
        try pool.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM outbox WHERE delivered_ms IS NULL AND dropped IS NULL AND next_ms <= ?)
                    """, arguments: [now]) ?? false
        }
    }

    public func claimDeliveries(nowMilliseconds now: Int64, lease: Int64, limit: Int) throws -> [Delivery] {
        // Asked every second by a running recorder: a read when nothing is due, no write.
        guard try hasDueDeliveries(nowMilliseconds: now) else { return [] }
        return try pool.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT o.*, a.channel, a.target, a.secret FROM outbox o JOIN alert a ON a.id = o.alert_id
                    WHERE o.delivered_ms IS NULL AND o.dropped IS NULL AND o.next_ms <= ?
                    ORDER BY o.next_ms, o.id LIMIT ?
                    """, arguments: [now, limit])
            var claimed: [Delivery] = []
            for row in rows {
                try db.execute(sql: "UPDATE outbox SET next_ms = ? WHERE id = ?", arguments: [now + lease, row["id"]])
                let id: Int64 = row["id"]
                guard let channel = AlertChannel(kind: row["channel"], target: row["target"], secret: row["secret"])
                else {
                    try db.execute(
                        sql: "UPDATE outbox SET dropped = ? WHERE id = ?",
                        arguments: ["its channel is none this Trailbook knows", id])
                    continue
                }
                claimed.append(
                    Delivery(
                        id: id, alert: row["alert_id"], channel: channel, key: row["key"], payload: row["payload"],
                        createdMilliseconds: row["created_ms"], attempts: row["attempts"]))
            }
            return claimed
        }
    }

    public func deliveries(account: String?, limit: Int) throws -> [StoredDelivery] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT o.* FROM outbox o JOIN alert a ON a.id = o.alert_id JOIN user u ON u.id = a.user_id
                    WHERE u.name = ? ORDER BY o.id DESC LIMIT ?
                    """, arguments: [account ?? TrackStore.localUser, limit]
            ).map {
                StoredDelivery(
                    id: $0["id"], alert: $0["alert_id"], payload: $0["payload"], createdMilliseconds: $0["created_ms"],
                    attempts: $0["attempts"], lastError: $0["last_error"], deliveredMilliseconds: $0["delivered_ms"],
                    dropped: $0["dropped"])
            }
        }
    }

    public func settleDelivery(_ id: Int64, _ outcome: DeliveryOutcome) throws {
        try pool.write { db in
            switch outcome {
            case .delivered(let t):
                try db.execute(
                    sql: "UPDATE outbox SET delivered_ms = ?, attempts = attempts + 1 WHERE id = ?", arguments: [t, id])
            case .retry(let t, let error):
                try db.execute(
                    sql: "UPDATE outbox SET next_ms = ?, attempts = attempts + 1, last_error = ? WHERE id = ?",
                    arguments: [t, error, id])
            case .dropped(let reason):
                try db.execute(sql: "UPDATE outbox SET dropped = ? WHERE id = ?", arguments: [reason, id])
            }
        }
    }
}
