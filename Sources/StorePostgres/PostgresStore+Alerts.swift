import Foundation
import GPSCore
import PostgresNIO
import TrackModel

extension PostgresStoring {
    public func addCue(_ cue: Cue, account: String?) throws -> Int64? {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return nil }
            return try session.value(
                """
                INSERT INTO cue (user_id, text, place, moment, once, created_ms)
                VALUES (\(user), \(cue.text), \(cue.place), \(cue.moment.rawValue), \(cue.once), \(UTCTimestamp.now()))
                RETURNING id
                """, as: Int64.self)
        }
    }

    public func cues(account: String?) throws -> [Cue] {
        try read { session in
            try session.query(
                """
                SELECT c.* FROM cue c JOIN account a ON a.id = c.user_id
                WHERE a.name = \(account ?? PostgresStore.localUser) ORDER BY c.id
                """
            ).map {
                Cue(
                    id: try $0.get("id"), text: try $0.get("text"), place: try $0.get("place"),
                    moment: CueMoment(rawValue: try $0.get("moment")) ?? .arrive, once: try $0.get("once"),
                    firedMilliseconds: try $0.optional("fired_ms"))
            }
        }
    }

    public func markCueFired(_ id: Int64, atMilliseconds t: Int64) throws {
        try write { session in
            try session.execute("UPDATE cue SET fired_ms = greatest(fired_ms, \(t)) WHERE id = \(id)")
        }
    }

    public func addTask(_ task: ScheduledTask, account: String?) throws -> Int64? {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return nil }
            return try session.value(
                """
                INSERT INTO task (user_id, text, due_ms, rule, time_zone, created_ms)
                VALUES (\(user), \(task.text), \(task.dueMilliseconds), \(task.rule), \(task.timeZone),
                    \(UTCTimestamp.now()))
                RETURNING id
                """, as: Int64.self)
        }
    }

    public func tasks(account: String?) throws -> [ScheduledTask] {
        try read { session in
            try session.query(
                """
                SELECT k.* FROM task k JOIN account a ON a.id = k.user_id
                WHERE a.name = \(account ?? PostgresStore.localUser) ORDER BY k.id
                """
            ).map {
                ScheduledTask(
                    id: try $0.get("id"), text: try $0.get("text"), dueMilliseconds: try $0.optional("due_ms"),
                    rule: try $0.get("rule"), timeZone: try $0.get("time_zone"),
                    firedMilliseconds: try $0.optional("fired_ms"), doneMilliseconds: try $0.optional("done_ms"))
            }
        }
    }

    public func advanceTask(_ id: Int64, from due: Int64, to next: Int64?) throws -> Bool {
        try write { session in
            try session.execute(
                """
                UPDATE task SET due_ms = \(next), fired_ms = \(due)
                WHERE id = \(id) AND due_ms = \(due) AND done_ms IS NULL
                """) > 0
        }
    }

    public func completeTask(_ id: Int64, account: String?, atMilliseconds t: Int64) throws -> Bool {
        try write { session in
            try session.execute(
                """
                UPDATE task SET done_ms = coalesce(done_ms, \(t))
                WHERE id = \(id) AND user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                """) > 0
        }
    }

    public func addAlert(_ alert: Alert, account: String?) throws -> Int64? {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return nil }
            return try session.value(
                """
                INSERT INTO alert (user_id, types, place, device, quiet, cooldown_s, channel, target, secret, created_ms)
                VALUES (\(user), \(AlertColumns.types(alert.types)), \(alert.place), \(alert.device), \(alert.quiet),
                    \(alert.cooldown), \(alert.channel.kind), \(alert.channel.target), \(alert.channel.secret),
                    \(UTCTimestamp.now()))
                RETURNING id
                """, as: Int64.self)
        }
    }

    public func alerts(account: String?) throws -> [Alert] {
        try read { session in
            try session.query(
                """
                SELECT a.*,
                    (SELECT count(*) FROM outbox o WHERE o.alert_id = a.id AND o.delivered_ms IS NULL
                        AND o.dropped IS NULL) AS waiting,
                    (SELECT count(*) FROM outbox o WHERE o.alert_id = a.id AND o.delivered_ms IS NOT NULL) AS delivered,
                    (SELECT count(*) FROM outbox o WHERE o.alert_id = a.id AND o.dropped IS NOT NULL) AS dropped
                FROM alert a JOIN account u ON u.id = a.user_id WHERE u.name = \(account ?? PostgresStore.localUser)
                ORDER BY a.id
                """
            ).compactMap {
                AlertColumns.alert(
                    id: try $0.get("id"), types: try $0.get("types"), place: try $0.optional("place"),
                    device: try $0.optional("device"), quiet: try $0.optional("quiet"),
                    cooldown: try $0.get("cooldown_s"), channel: try $0.get("channel"), target: try $0.get("target"),
                    secret: try $0.optional("secret"), lastMilliseconds: try $0.optional("last_ms"),
                    counts: DeliveryCounts(
                        waiting: Int(try $0.get("waiting", as: Int64.self)),
                        delivered: Int(try $0.get("delivered", as: Int64.self)),
                        dropped: Int(try $0.get("dropped", as: Int64.self))))
            }
        }
    }

    public func removeScheduled(_ item: ScheduleItem, id: Int64, account: String?) throws -> Bool {
        try write { session in
            try session.execute(
                """
                DELETE FROM \(unescaped: item.rawValue) WHERE id = \(id)
                AND user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                """) > 0
        }
    }

    public func enqueue(_ deliveries: [NewDelivery], nowMilliseconds now: Int64) throws -> Int {
        guard !deliveries.isEmpty else { return 0 }
        return try write { session in
            var added = 0
            for d in deliveries {
                added += try session.execute(
                    """
                    INSERT INTO outbox (alert_id, key, payload, created_ms, next_ms, dropped)
                    VALUES (\(d.alert), \(d.key), \(d.payload), \(now), \(now), \(d.dropped))
                    ON CONFLICT (alert_id, key) DO NOTHING
                    """)
                try session.execute(
                    """
                    UPDATE alert SET last_ms = greatest(last_ms, \(d.eventMilliseconds)) WHERE id = \(d.alert)
                    """)
            }
            return added
        }
    }

    public func deliveries(account: String?, limit: Int) throws -> [StoredDelivery] {
        try read { session in
            try session.query(
                """
                SELECT o.* FROM outbox o JOIN alert a ON a.id = o.alert_id JOIN account u ON u.id = a.user_id
                WHERE u.name = \(account ?? PostgresStore.localUser) ORDER BY o.id DESC LIMIT \(limit)
                """
            ).map {
                StoredDelivery(
                    id: try $0.get("id"), alert: try $0.get("alert_id"), payload: try $0.get("payload"),
                    createdMilliseconds: try $0.get("created_ms"),
                    attempts: Int(try $0.get("attempts", as: Int64.self)),
                    lastError: try $0.optional("last_error"), deliveredMilliseconds: try $0.optional("delivered_ms"),
                    dropped: try $0.optional("dropped"))
            }
        }
    }

    public func hasDueDeliveries(nowMilliseconds now: Int64) throws -> Bool {
        try read { session in
            try session.value(
                """
                SELECT EXISTS (SELECT 1 FROM outbox WHERE delivered_ms IS NULL AND dropped IS NULL AND next_ms <= \(now))
                """, as: Bool.self) ?? false
        }
    }

    public func claimDeliveries(nowMilliseconds now: Int64, lease: Int64, limit: Int) throws -> [Delivery] {
        try write { session in
            let rows = try session.query(
                """
                UPDATE outbox o SET next_ms = \(now + lease) FROM alert a
                WHERE a.id = o.alert_id AND o.id IN (
                    SELECT id FROM outbox WHERE delivered_ms IS NULL AND dropped IS NULL AND next_ms <= \(now)
                    ORDER BY next_ms, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING o.id, o.alert_id, o.key, o.payload, o.created_ms, o.attempts, a.channel, a.target, a.secret
                """)
            return try rows.compactMap { row -> Delivery? in
                guard
                    let channel = AlertChannel(
                        kind: try row.get("channel"), target: try row.get("target"), secret: try row.optional("secret"))
                else { return nil }
                return Delivery(
                    id: try row.get("id"), alert: try row.get("alert_id"), channel: channel, key: try row.get("key"),
                    payload: try row.get("payload"), createdMilliseconds: try row.get("created_ms"),
                    attempts: Int(try row.get("attempts", as: Int64.self)))
            }.sorted { $0.id < $1.id }
        }
    }

    public func settleDelivery(_ id: Int64, _ outcome: DeliveryOutcome) throws {
        try write { session in
            switch outcome {
            case .delivered(let t):
                try session.execute(
                    "UPDATE outbox SET delivered_ms = \(t), attempts = attempts + 1 WHERE id = \(id)")
            case .retry(let t, let error):
                try session.execute(
                    """
                    UPDATE outbox SET next_ms = \(t), attempts = attempts + 1, last_error = \(error) WHERE id = \(id)
                    """)
            case .dropped(let reason):
                try session.execute("UPDATE outbox SET dropped = \(reason) WHERE id = \(id)")
            }
        }
    }
}
