import Foundation
import GPSCore
import Synchronization
import TrackModel
import Visits

/// The kept timeline (docs/TIMELINE.md): each account's stays and moves as detection over all
/// its points and what Google (or Dawarich) said of them found them, kept as rows by the writes
/// (an import, the server's round after a phone's batch, `rm`, `timeline rebuild`) and read by
/// every reader through ``VisitService/find(store:fromMilliseconds:toMilliseconds:devices:rules:zone:memo:keep:)``.
/// A read never makes them. Places, their names, home and work and the user's corrections are
/// applied over the rows when read.
public enum TimelineKeeper {
    /// The detection's version: raised when the detector changes what it finds, so that kept
    /// rows of an older one are made again (`trailbook timeline rebuild`, the server's round).
    public static let version = 1

    static let day: Int64 = 86_400_000

    /// The rules the detection ran with, as kept beside the rows (``KeptTimelineState/rules``).
    /// The place radius is left out: places are found when the rows are read.
    public static func rulesText(_ rules: VisitRules) -> String {
        func n(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
        return "radius \(n(rules.radius)) m, stay \(n(rules.minDuration)) s, gap \(n(rules.maxGap)) s, "
            + "accuracy \(n(rules.maxAccuracy)) m"
    }

    /// The rules of a kept state's text (``rulesText(_:)``); nil for a text of another form.
    public static func rules(of text: String) -> VisitRules? {
        let numbers = text.split(separator: ",").map { part in
            part.split(separator: " ").compactMap { Double($0) }.first
        }
        guard numbers.count == 4, let radius = numbers[0], let stay = numbers[1], let gap = numbers[2],
            let accuracy = numbers[3]
        else { return nil }
        var rules = VisitRules()
        (rules.radius, rules.minDuration, rules.maxGap, rules.maxAccuracy) = (radius, stay, gap, accuracy)
        return rules
    }

    /// ``redo(store:account:from:to:rules:)`` with the rules the account's rows were made with,
    /// after a write that has no rules of its own (a removal); nothing when none were kept.
    @discardableResult
    public static func redoAsKept(store: any TrackStoring, account: String?, from: Int64, to: Int64) async throws
        -> Outcome?
    {
        guard let state = try await store.read({ try $0.keptTimelineState(account: account) }),
            state.version == version, let rules = rules(of: state.rules)
        else { return nil }
        return try await redo(store: store, account: account, from: from, to: to, rules: rules)
    }

    /// What a making of rows did.
    public struct Outcome: Sendable, Equatable {
        /// Whether every entry of the account was made again (none was kept, or with other
        /// rules or an older version); else the span made again.
        public var whole: Bool
        public var from: Int64
        public var to: Int64
        public var stays: Int
        public var moves: Int
    }

    /// Whether the account's rows were made with `rules` by this version.
    public static func isCurrent(store: any TrackStoring, account: String?, rules: VisitRules) async throws -> Bool {
        let state = try await store.read { try $0.keptTimelineState(account: account) }
        return state.map { $0.version == version && $0.rules == rulesText(rules) } ?? false
    }

    /// One making of an account's rows at a time in this process (a phone's batch and the
    /// server's round may ask at once): each reads what the one before it kept.
    static let turns = Mutex<[String: Turn]>([:])

    static func turn(_ store: any TrackStoring, _ account: String?) -> Turn {
        turns.withLock { turns in
            let key = store.path + "\u{1F}" + (account ?? "")
            if let turn = turns[key] { return turn }
            let turn = Turn()
            turns[key] = turn
            return turn
        }
    }

    /// Makes every kept entry of the account again, from all its points.
    /// `progress`: the days of points read so far, of how many.
    @discardableResult
    public static func rebuild(
        store: any TrackStoring, account: String?, rules: VisitRules,
        progress: (@Sendable (_ done: Int, _ of: Int) -> Void)? = nil
    ) async throws -> Outcome {
        try await turn(store, account).run {
            try await rebuilt(store: store, account: account, rules: rules, progress: progress)
        }
    }

    static func rebuilt(
        store: any TrackStoring, account: String?, rules: VisitRules,
        progress: (@Sendable (_ done: Int, _ of: Int) -> Void)?, checked: Bool = true
    ) async throws -> Outcome {
        let devices = DeviceFilter(account: account)
        let (newest, state) = try await store.read {
            (try $0.latestPoint(devices: devices)?.unixMilliseconds ?? .min, try $0.keptTimelineState(account: account))
        }
        var read: (@Sendable (Int64, (Int64, Int64)) -> Void)?
        if let progress {
            read = { done, span in
                let days = Int((span.1 - span.0 + day - 1) / day)
                progress(min(days, Int((done - span.0) / day)), days)
            }
        }
        let found = try await VisitService.detect(
            store: store, from: .min, to: .max, devices: devices, rules: rules, progress: read)
        let made = try await VisitService.withSaid(found, a: .min, b: .max, store: store, account: account)
        let entries = Self.entries(made)
        guard
            try await keep(
                entries, from: .min, to: .max, through: newest, store: store, account: account, rules: rules,
                expecting: checked ? state : nil)
        else {
            // Another process kept the account's timeline meanwhile: made again from what is
            // stored now (and kept, this time, whatever happens meanwhile).
            return try await rebuilt(store: store, account: account, rules: rules, progress: progress, checked: false)
        }
        return Outcome(
            whole: true, from: entries.first?.start ?? 0, to: entries.last?.end ?? 0,
            stays: entries.filter { $0.kind == .stay }.count, moves: entries.filter { $0.kind == .move }.count)
    }

    /// Makes the account's entries of `[from, to)` again after a write changed the points or the
    /// records of that time: the entry under way at `from` (or the last before it) and those
    /// that start up to `to` (or reach past it) are detected again, from a day of points on
    /// either side; an entry left kept on either side is not overlapped (the new one is cut
    /// where it begins or ends). Every entry is made again when none was kept, or with other
    /// rules or an older version.
    @discardableResult
    public static func redo(
        store: any TrackStoring, account: String?, from: Int64, to: Int64, rules: VisitRules
    ) async throws -> Outcome {
        try await turn(store, account).run {
            try await redone(store: store, account: account, from: from, to: to, rules: rules)
        }
    }

    /// ``redo(store:account:from:to:rules:)`` in this process's turn: made again, from what is
    /// stored then, while another process (an import beside the server) kept the account's
    /// timeline between this one's reads and its write.
    static func redone(
        store: any TrackStoring, account: String?, from: Int64, to: Int64, rules: VisitRules
    ) async throws -> Outcome {
        // (Bounded: the last try keeps what it made whatever happened meanwhile.)
        for attempt in 1... {
            if let outcome = try await redoneOnce(
                store: store, account: account, from: from, to: to, rules: rules, checked: attempt < 8)
            {
                return outcome
            }
        }
        fatalError("unreachable")
    }

    /// One making of ``redone(store:account:from:to:rules:)``; nil when the account's kept state
    /// was no longer what it read when it came to write.
    static func redoneOnce(
        store: any TrackStoring, account: String?, from: Int64, to: Int64, rules: VisitRules, checked: Bool
    ) async throws -> Outcome? {
        guard from < to else { return Outcome(whole: false, from: from, to: to, stays: 0, moves: 0) }
        let (state, newest, near) = try await store.read { tx in
            (
                try tx.keptTimelineState(account: account),
                try tx.latestPoint(devices: DeviceFilter(account: account))?.unixMilliseconds ?? .min,
                try tx.keptTimeline(fromMilliseconds: saturating(from, -3 * day), toMilliseconds: to, account: account)
            )
        }
        guard let state, state.version == version, state.rules == rulesText(rules) else {
            return try await rebuilt(store: store, account: account, rules: rules, progress: nil)
        }
        let under = near.last { $0.start < from }
        var r0 = min(from, under?.start ?? from)
        var r1 = max(to, near.filter { $0.start >= from }.map { $0.end + 1 }.max() ?? to)
        let (a, b) = (saturating(r0, -day), saturating(r1, day))
        let found = try await VisitService.detect(
            store: store, from: a, to: b, devices: DeviceFilter(account: account), rules: rules)
        let made = try await VisitService.withSaid(found, a: a, b: b, store: store, account: account)
        let all = Self.entries(made)
        // What is found under way at the start is made again whole (a stay that the new points
        // go on: the kept one ended where the points did).
        if let over = all.last(where: { $0.start < r0 && $0.end >= r0 }), over.start > a { r0 = over.start }
        // And what is under way at the end, to its end (a stay the next file's points go on).
        if let over = all.first(where: { $0.start < r1 && $0.end >= r1 }), over.end < b { r1 = over.end + 1 }
        let (start, end) = (r0, r1)
        var entries = all.filter { $0.start >= start && $0.start < end }
        // The neighbours kept on either side, and what is kept now of the time made again.
        let (before, after, now) = try await store.read { tx in
            (
                try tx.keptTimeline(
                    fromMilliseconds: saturating(start, -3 * day), toMilliseconds: start, account: account
                ).last { $0.start < start },
                try tx.keptTimeline(fromMilliseconds: end, toMilliseconds: saturating(end, 3 * day), account: account)
                    .first { $0.start >= end },
                try tx.keptTimeline(fromMilliseconds: start, toMilliseconds: end, account: account).filter {
                    $0.start >= start
                }
            )
        }
        // (One entry ends where the next begins: the same moment is no overlap.)
        if let before, let first = entries.first, first.start < before.end {
            entries[0].start = before.end
            if entries[0].start > entries[0].end { entries.removeFirst() }
        }
        if let after, let last = entries.last, last.end > after.start {
            entries[entries.count - 1].end = after.start
            if entries[entries.count - 1].end < entries[entries.count - 1].start { entries.removeLast() }
        }
        // What it saw reaches the newest point when it read up to it.
        let through = b > newest ? max(state.through, newest) : state.through
        if now.map(unnumbered) == entries {
            // Found as kept: the rows stay with their ids (a server started again looks at its
            // accounts' last days once more), only what was seen is said.
            if through != state.through {
                guard
                    try await keep(
                        [], from: end, to: end, through: through, store: store, account: account, rules: rules,
                        expecting: checked ? state : nil)
                else { return nil }
            }
        } else {
            guard
                try await keep(
                    entries, from: r0, to: r1, through: through, store: store, account: account, rules: rules,
                    expecting: checked ? state : nil)
            else { return nil }
        }
        return Outcome(
            whole: false, from: r0, to: r1, stays: entries.filter { $0.kind == .stay }.count,
            moves: entries.filter { $0.kind == .move }.count)
    }

    /// Keeps `entries` in place of those starting in `[from, to)`, in one write unit, when the
    /// account's kept state is still `expecting` (what was read before detecting; nil: whatever it
    /// is); false (nothing written) when another process kept it meanwhile.
    static func keep(
        _ entries: [KeptEntry], from: Int64, to: Int64, through: Int64, store: any TrackStoring, account: String?,
        rules: VisitRules, expecting: KeptTimelineState?
    ) async throws -> Bool {
        let state = KeptTimelineState(
            version: version, rules: rulesText(rules), through: through, madeMilliseconds: UTCTimestamp.now())
        return try await store.write { tx in
            if let expecting, try tx.keptTimelineState(account: account) != expecting { return false }
            _ = try tx.keepTimeline(entries, from: from, to: to, state: state, account: account)
            return true
        }
    }

    static func unnumbered(_ e: KeptEntry) -> KeptEntry {
        var e = e
        e.id = 0
        return e
    }

    /// The rows of what was made, in time order.
    static func entries(_ made: VisitService.Made) -> [KeptEntry] {
        let stays = made.visits.map { v in
            KeptEntry(
                kind: .stay, start: v.start, end: v.end, from: v.center, to: v.center, spread: v.spread,
                fixes: v.fixes, ongoing: v.ongoing)
        }
        let moves = made.trips.map { t in
            KeptEntry(
                kind: .move, start: t.start, end: t.end, from: t.from, to: t.to, fixes: t.fixes, distance: t.distance,
                movingSeconds: t.movingSeconds, medianSpeed: t.medianSpeed, highSpeed: t.highSpeed,
                mode: t.mode.rawValue, modeFrom: t.modeFrom.rawValue)
        }
        return (stays + moves).sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    /// The kept rows of `[from, to)` with `pad` on either side as ``VisitService`` works with
    /// them, when the account's are current for `rules`, `devices` are all its devices and no
    /// point of that time is newer than what was kept; nil otherwise (the reader works them
    /// out, keeping nothing).
    static func read(
        store: any TrackStoring, from: Int64, to: Int64, devices: DeviceFilter, rules: VisitRules, remembered: Bool
    ) async throws -> VisitService.Made? {
        switch devices {
        case .all, .account(_, device: nil): break
        default: return nil
        }
        let account = devices.account
        let pad = remembered ? day / 2 : day
        let (a, b) = (from == .min ? from : saturating(from, -pad), to == .max ? to : saturating(to, pad))
        let rows = try await store.read { tx in
            try answers(tx, to: b, devices: devices, rules: rules)
                ? try tx.keptTimeline(fromMilliseconds: a, toMilliseconds: b, account: account) : nil
        }
        guard let rows else { return nil }
        let said = try await VisitService.said(
            store: store, from: a == .min ? a : saturating(a, -day), to: b, account: account)
        var made = VisitService.Made(
            visits: [], trips: [], points: rows.reduce(0) { $0 + $1.fixes }, passedOver: 0, a: a, b: b,
            said: said.visits)
        for e in rows {
            switch e.kind {
            case .stay:
                var visit = Visit(
                    start: e.start, end: e.end, center: e.from, spread: e.spread, fixes: e.fixes, ongoing: e.ongoing)
                visit.id = e.id
                made.visits.append(visit)
            case .move:
                var trip = Trip(
                    start: e.start, end: e.end, from: e.from, to: e.to, distance: e.distance,
                    mode: e.mode.flatMap(TravelMode.init(rawValue:)) ?? .still, movingSeconds: e.movingSeconds,
                    medianSpeed: e.medianSpeed, highSpeed: e.highSpeed, fixes: e.fixes,
                    modeFrom: e.modeFrom.flatMap(ModeSource.init(rawValue:)) ?? .speeds)
                trip.id = e.id
                made.trips.append(trip)
            }
        }
        return made
    }

    /// Whether the kept rows of `devices`' account answer a look up to `to` with `rules`: they
    /// were made with those rules by this version, `devices` are all the account's, and no point
    /// before `to` is newer than what was kept.
    static func answers(_ tx: any StoreReading, to: Int64, devices: DeviceFilter, rules: VisitRules) throws -> Bool {
        switch devices {
        case .all, .account(_, device: nil): break
        default: return false
        }
        guard let state = try tx.keptTimelineState(account: devices.account), state.version == version,
            state.rules == rulesText(rules)
        else { return false }
        // Points newer than what was kept, in the time looked at: not kept yet.
        if to > state.through, let newest = try tx.latestPoint(devices: devices)?.unixMilliseconds,
            newest > state.through
        {
            return false
        }
        return true
    }

    /// The distance (m) and moving time (s) of `moves` on each local day (in the zone `zone` gives
    /// a move): a move over midnight counts the share of its time on each day (docs/TIMELINE.md,
    /// "Midnight").
    static func byDay(_ moves: [Trip], zone: (Trip) throws -> TimeZone) rethrows
        -> [CivilDate: (distance: Double, moving: Double)]
    {
        var days: [CivilDate: (distance: Double, moving: Double)] = [:]
        for move in moves {
            let there = try zone(move)
            var t = move.start
            repeat {
                let day = LocalDay.of(t, in: there)
                let next = LocalDay.start(day.adding(days: 1), in: there)
                let span = Double(move.end - move.start)
                let share = span > 0 ? Double(min(next, move.end) - t) / span : 1
                if share > 0 {
                    days[day, default: (0, 0)].distance += move.distance * share
                    days[day, default: (0, 0)].moving += move.movingSeconds * share
                }
                t = next
            } while t < move.end
        }
        return days
    }

    static func saturating(_ t: Int64, _ d: Int64) -> Int64 {
        let (sum, overflow) = t.addingReportingOverflow(d)
        return overflow ? (d < 0 ? .min : .max) : sum
    }
}
