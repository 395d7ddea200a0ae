import Foundation
import GPSCore
import Reports
import TrackModel
import Visits

/// What the day report shows, read from the store: the use case behind `report day`, the
/// overlay's pages and (next) the server's day page.
public enum DayReportInputs {
    /// The rides of `day` in `zone` with their statistics (splits per mile when `imperial`), the
    /// records with their notes, fields and photos (embedded as data URLs when `embedPhotos`,
    /// else linked: to the file, or where `photoLink` says for record id and photo index), and
    /// the day's summary; with `suggest`, what goes with the kinds of its records. The day is
    /// cut in `cutIn` (where the person was, ``DayZone``; nil: `zone`), its times written in `zone`.
    public static func load(
        _ day: CivilDate, store: any TrackStoring, zone: TimeZone, cutIn: TimeZone? = nil, until: Int64? = nil,
        imperial: Bool,
        embedPhotos: Bool, devices: DeviceFilter = .all, suggest: SuggestTables? = nil,
        visits: VisitRules? = VisitRules(), found: VisitFindings? = nil,
        photoLink: ((_ record: Int64, _ index: Int) -> String)? = nil
    ) async throws -> DayReportInput {
        let (from, midnight) = LocalDay.range(day, in: cutIn ?? zone)
        let to = until ?? midnight
        let account = devices.account
        // The day's rides, points, records and summary on one snapshot.
        var (stored, placed, storedRecords, summary) = try await store.read {
            (
                try $0.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices),
                try $0.pointsWithSegments(fromMilliseconds: from, toMilliseconds: to, devices: devices),
                try $0.records(fromMilliseconds: from, toMilliseconds: to, account: account),
                try $0.daySummary(day, account: account)
            )
        }
        var byRide: [Int64: [TrackPoint]] = [:]
        // One timeline of the person's devices: what two of them saw at once counts once.
        if FusedPoints.spansDevices(devices) { placed = FusedPoints.fuse(placed) }
        for p in placed {
            byRide[p.ride, default: []].append(TrackPoint(fix: p.fix, segment: p.segment))
        }
        var options = StatisticsOptions()
        if imperial { options.splitLength = 1609.344 }
        // The person's stays and trips, found once: they cut the rides (a stay is no part of a
        // ride) and make the timeline.
        var found = found
        if found == nil, let visits {
            found = try await VisitService.find(
                store: store, fromMilliseconds: from, toMilliseconds: to, devices: devices, rules: visits, zone: zone)
        }
        let stays = found.map { RideSelection.StayCut(rules: visits ?? VisitRules()).stays($0) } ?? []
        let parts = RideSelection.moving(
            stored.compactMap { r in byRide[r.id].flatMap { $0.isEmpty ? nil : (r, $0) } }, stays: stays)
        let rides = parts.map { r, points in
            DayReportInput.Ride(
                id: r.id, points: points, statistics: RideStatistics.compute(points, drops: r.drops, options: options))
        }
        let records = storedRecords.map { r in
            DayReportInput.Record(
                id: r.id!, milliseconds: r.milliseconds, coordinate: r.coordinate, notes: r.notes.map(\.text),
                photos: r.photos.enumerated().map { index, p in
                    if let photoLink { return (p.name, photoLink(r.id!, index)) }
                    let file = store.mediaDirectory + "/" + p.file
                    if embedPhotos, let data = FileManager.default.contents(atPath: file) {
                        return (p.name, "data:image/jpeg;base64," + data.base64EncodedString())
                    }
                    return (p.name, URL(fileURLWithPath: file).absoluteString)
                },
                fields: r.fields.map { ($0.key, $0.value.description) })
        }
        var input = DayReportInput(
            date: day.description, timeZone: zone,
            summary: summary, rides: rides, records: records,
            timeline: try await DayTimeline.load(
                day, store: store, zone: zone, cutIn: cutIn, until: until, devices: devices, visits: visits,
                found: found))
        if let cutIn, cutIn.identifier != zone.identifier { input.dayZone = cutIn }
        // The day's totals are its kept moves', as `summary --day` and `year --day` count them.
        if let trips = found?.trips {
            let shares = trips.map { ($0, YearReview.share($0, from: from, to: to)) }
            input.moved = (
                shares.map { $0.distance * $1 }.reduce(0, +), shares.map { $0.movingSeconds * $1 }.reduce(0, +)
            )
        }
        input.suggestions = try await suggest?.tables(for: SuggestTables.kindNames(storedRecords)) ?? []
        return input
    }
}

/// The overlay: the routes of many days on one map, with a day page for each day with rides.
public enum OverlayPages {
    /// Renders the page of each day in `days` that has rides and hands it to `write` (as
    /// `YYYY-MM-DD.html`) as soon as it is made, so a year never sits in memory; then the index
    /// page (`index.html`). Each day is read and computed once, for its page and the overlay.
    /// Returns the number of days with rides; with none, nothing is written and it fails.
    public static func render(
        _ days: [CivilDate], title: (_ daysWithRides: Int) -> String, store: any TrackStoring, zone: TimeZone,
        style: ReportStyle,
        devices: DeviceFilter = .all, suggest: SuggestTables? = nil,
        write: (_ name: String, _ html: String) throws -> Void
    ) async throws -> Int {
        let (list, kinds) = try await collect(
            days, store: store, zone: zone, style: style, devices: devices, suggest: suggest, visits: VisitRules(),
            link: { "\($0).html" }
        ) { day, input in
            try write("\(day).html", DayReport.render(input, style: style, back: "index.html#\(day)"))
        }
        if list.isEmpty { throw QueryError.noRides("those days", zone: zone.displayIdentifier) }
        let suggestions = try await suggest?.tables(for: kinds) ?? []
        try write(
            "index.html", OverlayReport.render(list, title: title(list.count), style: style, suggestions: suggestions))
        return list.count
    }

    /// The overlay's days among `days`: those with rides or records, each read and computed once
    /// and handed to `each` with its input as soon as it is made (so a day page can be written
    /// then); `link` is where each day's row points. Also the record kinds of those days. The
    /// days' timelines get the visits found in their points only with `visits` (for day pages:
    /// finding them reads each day's neighbours too).
    public static func collect(
        _ days: [CivilDate], store: any TrackStoring, zone: TimeZone, style: ReportStyle, devices: DeviceFilter = .all,
        suggest: SuggestTables? = nil, visits: VisitRules? = nil, link: (CivilDate) -> String,
        each: (CivilDate, DayReportInput) throws -> Void = { _, _ in }
    ) async throws -> (days: [OverlayReport.Day], kinds: Set<String>) {
        var list: [OverlayReport.Day] = []
        var kinds: Set<String> = []
        for day in days {
            let input = try await DayReportInputs.load(
                day, store: store, zone: zone, imperial: style.imperial, embedPhotos: false, devices: devices,
                suggest: suggest, visits: visits)
            kinds.formUnion(input.suggestions.map(\.kind))
            guard !input.rides.isEmpty || !input.records.isEmpty else { continue }
            let lines = input.rides.flatMap { DayReport.segments($0.points) }.map { $0.map { $0.fix.coordinate! } }
            try each(day, input)
            list.append(
                .init(
                    date: day.description, lines: lines,
                    distance: input.distanceAndMoving.distance, moving: input.distanceAndMoving.moving,
                    link: link(day), summary: input.summary,
                    places: input.records.map(\.coordinate)))
        }
        return (list, kinds)
    }
}
