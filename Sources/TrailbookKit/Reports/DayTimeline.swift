import Foundation
import GPSCore
import Reports
import TrackModel
import Visits

/// A day as one timeline (`trailbook timeline`, the day report): rides, visits to places (an
/// arrival to its departure, and the stays found in the points), the trips between visits with
/// their mode, stops elsewhere (a stop to the next start), the other events, cues, tasks and
/// diary records, in time order.
public enum DayTimeline {
    /// The ride entries with the stays' insides taken out: a ride over a stay is its parts on
    /// either side (their point counts not known here, so not said), a ride inside one is none.
    static func cut(_ entries: [TimelineEntry], at stays: [RideParts.Stay]) -> [TimelineEntry] {
        entries.flatMap { e -> [TimelineEntry] in
            guard e.kind == .ride, let end = e.end else { return [e] }
            var pieces: [(Int64, Int64)] = [(e.start, end)]
            for s in stays {
                pieces = pieces.flatMap { a, b -> [(Int64, Int64)] in
                    guard s.start < b, s.end > a else { return [(a, b)] }
                    return [(a, Swift.min(b, s.start)), (Swift.max(a, s.end), b)].filter { $0.1 > $0.0 }
                }
            }
            if pieces.count == 1, pieces[0] == (e.start, end) { return [e] }
            return pieces.map { a, b in
                var piece = e
                (piece.start, piece.end, piece.detail) = (a, b, nil)
                return piece
            }
        }
    }

    /// `visits`: the rules of visit detection (nil: only the visits the place events mark);
    /// `found`: the day's visits and trips when the caller found them already (they are used
    /// instead). The day is cut in `cutIn` (where the person was, ``DayZone``; nil: `zone`).
    public static func load(
        _ day: CivilDate, store: any TrackStoring, zone: TimeZone, cutIn: TimeZone? = nil, until: Int64? = nil,
        devices: DeviceFilter = .all,
        visits rules: VisitRules? = VisitRules(), found: VisitFindings? = nil
    ) async throws -> [TimelineEntry] {
        let (from, midnight) = LocalDay.range(day, in: cutIn ?? zone)
        let to = until ?? midnight
        let account = devices.account
        var (rides, events, records) = try await store.read {
            (
                try $0.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices),
                try $0.events(fromMilliseconds: from, toMilliseconds: to, types: nil, account: account),
                try $0.records(fromMilliseconds: from, toMilliseconds: to, account: account)
            )
        }
        // Each device's last fix of the day: a stay with no departure ends there, not at midnight.
        var lastFix: [String: Int64] = [:]
        for r in rides { lastFix[r.device] = max(lastFix[r.device] ?? .min, r.endMilliseconds) }
        var entries = rides.map { r in
            TimelineEntry(
                kind: .ride, start: r.startMilliseconds, end: r.endMilliseconds, title: "ride \(r.id)",
                detail: counted(r.pointCount, "point"), device: r.device, ride: r.id)
        }
        switch devices {
        case .named(let name), .account(_, device: .some(let name)): events = events.filter { $0.device == name }
        default: break
        }
        var spans = spans(events, from: from, to: to, lastFix: lastFix, zone: zone)
        var found = found
        if found == nil, let rules {
            found = try await VisitService.find(
                store: store, fromMilliseconds: from, toMilliseconds: to, devices: devices, rules: rules, zone: zone)
        }
        if let found {
            spans = merged(found, adding: spans, from: from, to: to)
            // A stay is no part of a ride: a ride is listed as its times between the stays.
            entries = cut(entries, at: RideSelection.StayCut(rules: rules ?? VisitRules()).stays(found))
            // A ride abroad in the time of where it was, as the visits and trips around it.
            for i in entries.indices where entries[i].kind == .ride {
                entries[i].zone = found.zone(at: entries[i].start)
            }
        }
        entries += spans
        for stored in events {
            let e = stored.event
            switch e.type {
            case .placeArrive, .placeDepart, .motionMoving, .motionStopped: continue
            case .cue:
                entries.append(
                    TimelineEntry(
                        kind: .cue, start: e.milliseconds, title: e.text ?? "", detail: e.place.map { "at \($0)" },
                        type: e.type.rawValue, device: stored.device, place: e.place))
            case .taskDue:
                entries.append(
                    TimelineEntry(
                        kind: .task, start: e.milliseconds, title: e.text ?? "", type: e.type.rawValue,
                        device: stored.device))
            default:
                entries.append(
                    TimelineEntry(
                        kind: .event, start: e.milliseconds,
                        title: AlertMessage.title(e, device: stored.device), type: e.type.rawValue,
                        device: stored.device, place: e.place))
            }
        }
        entries += records.compactMap {
            r in
            guard let id = r.id else { return nil }
            let note = r.notes.first.map { $0.text.split(separator: "\n").first.map(String.init) ?? "" }
            return TimelineEntry(kind: .record, start: r.milliseconds, title: "record \(id)", detail: note, record: id)
        }
        return TimelineEntry.ordered(entries)
    }

    /// Visits (arrive → depart at a place) and stops (stopped → moving, not within a visit),
    /// per device; one open at the day's start runs from it; one with no end runs to the device's
    /// last fix of the day (`lastFix`), or to the day's end when the fixes go on past it.
    static func spans(
        _ events: [StoredEvent], from: Int64, to: Int64, lastFix: [String: Int64] = [:], zone: TimeZone
    ) -> [TimelineEntry] {
        /// Where a span with no end event ends: at the last fix, unless the fixes go on after the day.
        func end(_ device: String, after a: Int64) -> Int64 {
            guard let last = lastFix[device], last < to - 1 else { return to - 1 }
            return max(a, last)
        }
        var visits: [TimelineEntry] = []
        var stops: [TimelineEntry] = []
        var arrived: [String: Int64] = [:]
        var stopped: [String: Int64] = [:]
        func visit(_ device: String, _ place: String, _ a: Int64, _ b: Int64) {
            var v = TimelineEntry(
                kind: .visit, start: a, end: b, title: place, detail: minutes(b - a), device: device, place: place)
            v.openStart = a == from
            v.openEnd = b == to - 1
            visits.append(v)
        }
        for stored in events {
            let e = stored.event
            let key = stored.device + "\u{1F}" + (e.place ?? "")
            switch e.type {
            case .placeArrive: arrived[key] = e.milliseconds
            case .placeDepart:
                visit(stored.device, e.place ?? "", arrived.removeValue(forKey: key) ?? from, e.milliseconds)
            case .motionStopped: stopped[stored.device] = e.milliseconds
            case .motionMoving:
                let a = stopped.removeValue(forKey: stored.device) ?? from
                var s = TimelineEntry(
                    kind: .stop, start: a, end: e.milliseconds, title: "stopped", detail: minutes(e.milliseconds - a),
                    device: stored.device)
                s.openStart = a == from
                stops.append(s)
            default: continue
            }
        }
        for (key, a) in arrived {
            let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            visit(parts[0], parts[1], a, end(parts[0], after: a))
        }
        for (device, a) in stopped {
            let b = end(device, after: a)
            var s = TimelineEntry(
                kind: .stop, start: a, end: b, title: "stopped", detail: minutes(b - a), device: device)
            s.openEnd = b == to - 1
            stops.append(s)
        }
        // A stop within a visit is that visit.
        let kept = stops.filter { s in
            !visits.contains { v in v.device == s.device && v.start <= s.start + 60_000 && s.start < v.end! }
        }
        return visits + kept
    }

    /// The stays and trips found in the points beside the visits and stops the events mark: a
    /// stay an event-marked visit covers for the most part is that visit; a stop within a stay
    /// is that stay (when they overlap for the most part). Spans over midnight are cut at the day's edges (their length is the whole).
    static func merged(_ f: VisitFindings, adding marked: [TimelineEntry], from: Int64, to: Int64) -> [TimelineEntry] {
        func overlap(_ a: TimelineEntry, _ s: Int64, _ e: Int64) -> Int64 {
            max(0, min(a.end ?? a.start, e) - max(a.start, s))
        }
        let markedVisits = marked.filter { $0.kind == .visit }
        var entries = marked.filter { $0.kind == .visit }
        var stays: [(Int64, Int64)] = []
        for v in f.visits {
            let (a, b) = (max(v.start, from), min(v.end, to - 1))
            guard !markedVisits.contains(where: { overlap($0, a, b) * 2 > b - a }) else { continue }
            var e = TimelineEntry(
                kind: .visit, start: a, end: b, title: f.name(of: v), detail: minutes(v.end - v.start),
                place: f.name(of: v))
            e.openStart = v.start < from
            e.openEnd = v.end > to - 1
            e.zone = f.zone(of: v)
            e.entry = v.id
            entries.append(e)
            stays.append((v.start, v.end))
        }
        for t in f.trips {
            var e = TimelineEntry(
                kind: .trip, start: max(t.start, from), end: min(t.end, to - 1),
                title: "\(t.mode.rawValue) \(VisitService.distance(t.distance))", detail: minutes(t.end - t.start),
                type: t.mode.rawValue)
            e.openStart = t.start < from
            e.openEnd = t.end > to - 1
            e.zone = f.zone(at: t.start)
            e.entry = t.id
            let share = YearReview.share(t, from: from, to: to)
            (e.distance, e.moving) = (t.distance * share, t.movingSeconds * share)
            entries.append(e)
        }
        let stops = marked.filter { s in
            s.kind == .stop && !stays.contains { overlap(s, $0.0, $0.1) * 2 > (s.end ?? s.start) - s.start }
        }
        return entries + stops
    }

    public static func minutes(_ ms: Int64) -> String {
        let m = Int((Double(ms) / 60_000).rounded())
        return m < 60 ? "\(m) min" : "\(m / 60) h \(m % 60) min"
    }
}
