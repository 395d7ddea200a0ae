import Formats
import Foundation
import GPSCore
import Hummingbird
import Reports
import TrackModel
import TrailbookKit
import Visits

/// The signed-in account's diary in the browser: the day page (`/day/YYYY-MM-DD`, the content of
/// `report day` for the account's devices and records), its summary, notes and records added
/// through forms, and the records' photos. The page is the report's template with links and
/// forms (``WebDay``); the store is read and the page made on the server's thread pool, never on
/// a cooperative thread. Every change is a form with the session's CSRF token, answered by a
/// redirect to the day (post, redirect, get), whose message is one of a few fixed sentences.
struct WebDiary {
    let store: any TrackStoring
    let login: Login
    let tiles: TileFetcher?
    /// Where the account's days begin and end, and how times are shown.
    let zone: TimeZone
    /// What counts as a visit (`[visits]`), for the year in review.
    var visitRules = VisitRules()
    /// The overlay's rides, worked out once each, for every account of the server.
    var shapes = OverlayShapes()
    /// Where the visit detector stood in each year looked at, for every account of the server:
    /// the next look reads only the points since.
    var years = DetectionMemo()

    /// The sentences a redirect names in `?saved=`: nothing the user typed goes back into a page
    /// through a URL.
    static let saved = [
        "summary": "The day’s summary is saved.", "note": "The note is added.", "record": "The record is added.",
        "deleted": "The record is deleted.", "corrected": "Your correction is kept.", "named": "The place is named.",
        "edited": "Your edit is kept.", "undone": "The edit is undone.",
    ]

    func diary(_ user: String, zone: TimeZone) -> DiaryService { DiaryService(store: store, zone: zone, account: user) }

    func add(to router: Router<ServerContext>) {
        // The day picker's GET form; a day that is not a date shows today.
        router.get("/day") { request, _ -> Response in
            let text = request.uri.queryParameters.get("date") ?? ""
            var zone = self.zone
            if let (_, session) = await login.session(request) {
                zone = await login.local(session.user, zone: zone).zone
            }
            let day = CivilDate(iso: text) ?? LocalTime.today(in: zone)
            return WebPages.redirect("/day/\(day)")
        }
        router.get("/day/:date") { request, context -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let day = try Self.day(context)
            let message = request.uri.queryParameters.get("saved").flatMap { Self.saved[String($0)] }
            // The edit just made, offered to undo while it is still the account's.
            var undo: Int64?
            if message != nil, let id = request.uri.queryParameters.get("undo").flatMap({ Int64(String($0)) }) {
                let user = session.user
                let kept = try await store.read { try $0.corrections(account: user) }
                undo = kept.contains { $0.id == id } ? id : nil
            }
            return try await page(day, user: session.user, csrf: session.csrf, message: message, undo: undo)
        }
        // The day's timeline as `trailbook timeline D --json` gives it: the kept stays and moves with
        // their ids, the rides, events, cues, tasks and records, for scripts and the phone apps.
        router.get("/api/days/:date") { request, context -> Response in
            let user = try await login.user(request, context)
            guard let text = context.parameters.get("date"), let day = CivilDate(iso: text) else {
                throw Refusal(.badRequest, "A day is written YYYY-MM-DD, e.g. /api/days/2026-06-14.")
            }
            let zone = await login.local(user, zone: zone).zone
            let devices = DeviceFilter(account: user)
            let (cut, until) = try await store.read { tx in
                (
                    try DayZone.of(day, store: tx, devices: devices, zone: zone),
                    try DayZone.end(of: day, store: tx, devices: devices, zone: zone)
                )
            }
            let entries = try await DayTimeline.load(
                day, store: store, zone: zone, cutIn: cut, until: until, devices: devices, visits: visitRules)
            return try SharingServer.json(TimelineJSON(date: day.description, zone: zone, cutIn: cut, entries: entries))
        }
        router.post("/day/:date/summary") { request, context -> Response in
            let (user, _, fields) = try await WebPages.form(request, login: login)
            let day = try Self.day(context)
            let diary = diary(user, zone: await login.local(user, zone: zone).zone)
            let text = fields["summary"] ?? ""
            _ = try await diary.setDaySummary(day, text: text)
            return WebPages.redirect("/day/\(day)?saved=summary")
        }
        // A correction of the day's visits and trips: a trip's mode, a visit's place, a place's name.
        router.post("/day/:date/corrections") { request, context -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let day = try Self.day(context)
            let zone = await login.local(user, zone: zone).zone
            let corrections = VisitCorrections(
                store: store, devices: DeviceFilter(account: user), rules: visitRules, zone: zone)
            let at = fields["at"].flatMap { Int64($0) }
            do {
                let saved: String
                if let edit = fields["edit"] {
                    // An edit of the day's shape (docs/TIMELINE.md, "Edits"), offered to undo after.
                    guard let done = try await Self.edit(edit, fields, at: at, day: day, zone: zone, corrections) else {
                        return WebPages.redirect("/day/\(day)?saved=undone#movements")
                    }
                    return WebPages.redirect("/day/\(day)?saved=edited&undo=\(done)#movements")
                } else if let id = fields["place_id"].flatMap({ Int($0) }) {
                    try await corrections.name(place: id, as: fields["name"])
                    saved = "named"
                } else {
                    guard let at else { throw VisitCorrectionError.noVisit(when: "the time the form gave") }
                    if let text = fields["mode"] {
                        guard let mode = TravelMode(rawValue: text) else { throw VisitCorrectionError.badMode(text) }
                        _ = try await corrections.mode(at: at, mode)
                    } else {
                        _ = try await corrections.place(at: at, fields["place"] ?? "")
                    }
                    saved = "corrected"
                }
                return WebPages.redirect("/day/\(day)?saved=\(saved)#movements")
            } catch let error as VisitCorrectionError {
                return try await page(
                    day, user: user, csrf: csrf, message: error.description, status: .unprocessableContent)
            }
        }
        router.post("/day/:date/records") { request, context -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let day = try Self.day(context)
            guard let latitude = fields["lat"].flatMap(Double.init), (-90...90).contains(latitude),
                let longitude = fields["lon"].flatMap(Double.init), (-180...180).contains(longitude)
            else {
                return try await page(
                    day, user: user, csrf: csrf, message: "Tap the map where the record goes, then add it.",
                    status: .unprocessableContent)
            }
            let zone = await login.local(user, zone: zone).zone
            guard let time = Self.milliseconds(fields["time"] ?? "", on: day, zone: zone) else {
                return try await page(
                    day, user: user, csrf: csrf, message: "Give the record’s time as hours and minutes, e.g. 14:30.",
                    status: .unprocessableContent)
            }
            let note = (fields["note"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let diary = diary(user, zone: zone)
            let record = try await diary.mark(
                .given(Coordinate(latitude: latitude, longitude: longitude), altitude: nil, time: time),
                note: note.isEmpty ? nil : note)
            return WebPages.redirect("/day/\(day)?saved=record#record-\(record.id ?? 0)")
        }
        router.post("/records/:id/notes") { request, context -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let id = try Self.record(context)
            let zone = await login.local(user, zone: zone).zone
            let diary = diary(user, zone: zone)
            guard let record = try? await diary.record(id) else { throw Self.noRecord(id) }
            let day = LocalDay.of(record.milliseconds, in: zone)
            let text = fields["note"] ?? ""
            do {
                _ = try await diary.addNote(text, to: id)
            } catch let error as DiaryError {
                return try await page(
                    day, user: user, csrf: csrf, message: error.description, status: .unprocessableContent)
            }
            return WebPages.redirect("/day/\(day)?saved=note#record-\(id)")
        }
        // A photo of one of the account's records (another account's record is not there).
        router.get("/photos/:id/:index") { request, context -> Response in
            guard let (_, session) = await login.session(request) else { throw Refusal.sessionEnded }
            let id = try Self.record(context)
            let diary = diary(session.user, zone: zone)
            let folder = store.mediaDirectory
            guard let index = context.parameters.get("index", as: Int.self),
                let record = try? await diary.record(id), record.photos.indices.contains(index),
                let data = await Blocking.run({
                    FileManager.default.contents(atPath: folder + "/" + record.photos[index].file)
                })
            else { throw Refusal(.notFound, "There is no such photo in your diary.") }
            return Response(
                status: .ok,
                headers: [
                    .contentType: TileImage.mime(of: data) ?? "application/octet-stream",
                    .cacheControl: "private, max-age=86400",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("/day.js") { _, _ -> Response in WebPages.script(MapScript.webDay + Self.photoScript) }
        router.post("/records/:id/photos") { request, context -> Response in
            let user = try await login.user(request, context)
            let id = try Self.record(context)
            let (folder, path, name) = try await WebImport.receive(
                request, context, limit: Self.photoLimit, tooLarge: "Send a smaller JPEG.")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let diary = diary(user, zone: zone)
            do {
                guard (try? await diary.record(id)) != nil else { throw Self.noRecord(id) }
                let photo = try await Blocking.run { try PhotoFile(path) }
                let stored = try await diary.attach([photo], to: id).count
                return try context.responseEncoder.encode(
                    PhotoUpload(record: id, photos: stored, name: name), from: request, context: context)
            } catch let error as PhotoError {
                throw Refusal(.unprocessableContent, error.description.replacingOccurrences(of: path, with: name))
            }
        }
        // Many days' routes on one map (the overlay), with their list: at most `overlayDays`.
        router.get("/days") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let (zone, imperial) = await login.local(session.user, zone: zone)
            let query = request.uri.queryParameters
            var to = query.get("to").flatMap { CivilDate(iso: String($0)) } ?? LocalTime.today(in: zone)
            var from = query.get("from").flatMap { CivilDate(iso: String($0)) } ?? to.adding(days: -6)
            if to < from { (from, to) = (to, from) }
            var message: String?
            if to.daysSinceEpoch - from.daysSinceEpoch >= Self.overlayDays {
                from = to.adding(days: -(Self.overlayDays - 1))
                message =
                    "At most \(Self.overlayDays) days go on one map: these are the last of the range, from \(from)."
            }
            let days = (from.daysSinceEpoch...to.daysSinceEpoch).map { CivilDate(daysSinceEpoch: $0) }
            let style = style(imperial: imperial)
            let web = WebOverlay(
                user: session.user, home: "/", calendar: "/calendar?year=\(to.year)", script: "/days.js",
                from: from.description, to: to.description, message: message)
            let (store, user, first, last, shapes) = (self.store, session.user, from, to, self.shapes)
            let list = try await shapes.days(
                days, store: store, zone: zone, devices: DeviceFilter(account: user), rules: visitRules,
                link: { "/day/\($0)" })
            let title =
                list.isEmpty
                ? "Nothing recorded from \(first) to \(last)" : "\(first) to \(last): \(counted(list.count, "day"))"
            let html = OverlayReport.render(list, title: title, style: style, web: web)
            return WebPages.html(html)
        }
        router.get("/days.js") { _, _ -> Response in WebPages.script(MapScript.overlay) }
        // Removing a record: a page that says what goes, then the form that removes it for good.
        router.get("/records/:id/delete") { request, context -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let id = try Self.record(context)
            let zone = await login.local(session.user, zone: zone).zone
            let diary = diary(session.user, zone: zone)
            guard let record = try? await diary.record(id) else { throw Self.noRecord(id) }
            let lines = try await diary.preview(.records([id]))
            let day = LocalDay.of(record.milliseconds, in: zone)
            return WebPages.confirm(
                user: session.user, csrf: session.csrf, what: "record \(id)", lines: lines,
                action: "/records/\(id)/delete", back: "/day/\(day)#record-\(id)",
                note: "photos no other record uses are deleted too")
        }
        router.post("/records/:id/delete") { request, context -> Response in
            let (user, _, _) = try await WebPages.form(request, login: login)
            let id = try Self.record(context)
            let zone = await login.local(user, zone: zone).zone
            let diary = diary(user, zone: zone)
            guard let record = try? await diary.record(id) else { throw Self.noRecord(id) }
            _ = try await diary.remove(.records([id]))
            let day = LocalDay.of(record.milliseconds, in: zone)
            return WebPages.redirect("/day/\(day)?saved=deleted")
        }
        // Export: a range of the account's rides and records as GPX, GeoJSON or KML.
        router.get("/export") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let zone = await login.local(session.user, zone: zone).zone
            let query = request.uri.queryParameters
            let today = LocalTime.today(in: zone)
            let to = query.get("to").flatMap { CivilDate(iso: String($0)) } ?? today
            let from = query.get("from").flatMap { CivilDate(iso: String($0)) } ?? to.adding(days: -6)
            var page = ExportPage(
                user: session.user, from: from.description, to: to.description, today: today.description)
            guard let format = query.get("format").map({ String($0) }) else {
                return WebPages.html(WebTemplates.pages.render("export", model: page))
            }
            let (store, user) = (self.store, session.user)
            do {
                guard let kind = Self.exportFormats[format] else {
                    throw Refusal(.badRequest, "Export as gpx, geojson or kml.")
                }
                guard from <= to else { throw Refusal(.unprocessableContent, "The range ends before it begins.") }
                let selection = try await RideSelection.load(
                    .days(first: from, last: to), store: store, zone: zone, devices: DeviceFilter(account: user),
                    fused: false)
                var export = try await selection.export(
                    store: store, records: true, account: user,
                    timeline: TimelinePlaces(rules: visitRules, devices: DeviceFilter(account: user), zone: zone))
                // The photos' files on the server are nobody's business: their names only.
                for i in export.places.indices {
                    export.places[i].photos = export.places[i].photos.map { ($0 as NSString).lastPathComponent }
                }
                let text =
                    switch format {
                    case "geojson": GeoJSONWriter.write(export)
                    case "kml": KMLWriter.write(export)
                    default: GPXWriter.write(export)
                    }
                let name = from == to ? "trailbook-\(from).\(format)" : "trailbook-\(from)-to-\(to).\(format)"
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: kind, .contentDisposition: "attachment; filename=\"\(name)\"",
                        .cacheControl: "no-store",
                    ],
                    body: .init(byteBuffer: ByteBuffer(string: text)))
            } catch let error as QueryError {
                page.message = error.description
                return WebPages.html(WebTemplates.pages.render("export", model: page), status: .notFound)
            } catch let refusal as Refusal {
                page.message = refusal.message
                return WebPages.html(WebTemplates.pages.render("export", model: page), status: refusal.status)
            }
        }
        // The year in review: the visits and trips in the account's points.
        router.get("/year") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let (zone, imperial) = await login.local(session.user, zone: zone)
            let year =
                request.uri.queryParameters.get("year").flatMap { Int(String($0)) } ?? LocalTime.today(in: zone).year
            guard (1970...9999).contains(year) else {
                throw Refusal(.notFound, "A review's year is between 1970 and 9999, e.g. /year?year=2026.")
            }
            let user = session.user
            let (from, to) = (
                LocalDay.start(CivilDate(unchecked: year, 1, 1), in: zone),
                LocalDay.start(CivilDate(unchecked: year + 1, 1, 1), in: zone)
            )
            let findings = try await VisitService.find(
                store: store, fromMilliseconds: from, toMilliseconds: to, devices: DeviceFilter(account: user),
                rules: visitRules, zone: zone, memo: years)
            let review = YearReview(findings, zone: zone, within: (from, to))
            return WebPages.html(
                WebTemplates.pages.render(
                    "year",
                    model: Self.yearPage(
                        review, findings: findings, year: year, user: user, zone: zone, imperial: imperial)))
        }
        // A year at a glance: each day shaded by how long was recorded, linked to its page.
        router.get("/calendar") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let zone = await login.local(session.user, zone: zone).zone
            let today = LocalTime.today(in: zone)
            guard let year = request.uri.queryParameters.get("year").flatMap({ Int(String($0)) }) else {
                // No year asked: the month of the newest point, in view.
                let user = session.user
                let newest = try await store.read { try $0.latestPoint(devices: DeviceFilter(account: user)) }?
                    .unixMilliseconds
                let day = newest.map { LocalDay.of($0, in: zone) } ?? today
                return WebPages.redirect("/calendar?year=\(day.year)#" + Self.monthID(day))
            }
            guard (1970...9999).contains(year) else {
                throw Refusal(.notFound, "A calendar's year is between 1970 and 9999, e.g. /calendar?year=2026.")
            }
            let user = session.user
            let calendar = try await DiaryCalendar.load(
                year, store: store, zone: zone, devices: DeviceFilter(account: user), rules: visitRules)
            return WebPages.html(
                WebTemplates.pages.render("calendar", model: Self.calendarPage(calendar, user: user, today: today)))
        }
    }

    /// What the export page shows: the range asked, and why an export was refused.
    struct ExportPage: Encodable {
        let user: String
        let from: String
        let to: String
        let today: String
        var message: String?
    }

    /// What the year template shows: `trailbook year`'s review in the account's zone and units.
    struct YearPage: Encodable {
        struct Mode: Encodable {
            let mode: String
            let distance: String
            let icon: String
            let time: String
            let trips: Int
            /// The bar's length, % of the longest.
            let share: Int
        }
        struct Figure: Encodable {
            let value: String
            let label: String
        }
        struct Country: Encodable {
            let name: String
            let days: String
        }
        struct City: Encodable {
            let name: String
            let country: String
            let days: String
        }
        struct Place: Encodable {
            let name: String
            let hours: String
            let visits: String
            let share: Int
            let locality: String?
        }
        struct Trip: Encodable {
            let date: String
            let when: String
            let what: String
        }
        let user: String
        let year: Int
        let previous: Int
        let next: Int
        let empty: Bool
        let summary: String
        let modes: [Mode]
        let figures: [Figure]
        let away: String
        let noGazetteer: Bool
        let countries: [Country]
        let cities: [City]
        let places: [Place]
        let longest: Trip?
    }

    static func yearPage(
        _ review: YearReview, findings f: VisitFindings, year: Int, user: String, zone: TimeZone, imperial: Bool
    ) -> YearPage {
        func distance(_ metres: Double) -> String {
            imperial ? String(format: "%.1f mi", metres / 1609.344) : VisitService.distance(metres)
        }
        func days(_ n: Int) -> String { counted(n, "day") }
        return YearPage(
            user: user, year: year, previous: year - 1, next: year + 1, empty: review.days == 0,
            summary: "\(days(review.days)) with data, \(counted(review.visits, "visit")) at "
                + "\(counted(f.places.count, "place")), \(counted(review.trips, "trip")) (\(zone.displayIdentifier))",
            modes: review.byMode.map { m in
                YearPage.Mode(
                    mode: m.mode.rawValue, distance: distance(m.distance), icon: AppStyle.modeIcon(m.mode.rawValue),
                    time: LocalTime.hoursAndMinutes(m.seconds), trips: m.trips,
                    share: share(m.distance, of: review.byMode.map(\.distance).max() ?? 0))
            },
            figures: [
                .init(value: "\(review.days)", label: review.days == 1 ? "day with data" : "days with data"),
                .init(value: distance(review.byMode.map(\.distance).reduce(0, +)), label: "travelled"),
                .init(value: "\(review.trips)", label: review.trips == 1 ? "trip" : "trips"),
                .init(value: "\(f.places.count)", label: f.places.count == 1 ? "place" : "places"),
                .init(
                    value: "\(review.countries.count)", label: review.countries.count == 1 ? "country" : "countries"),
            ],
            away: review.home.map { h in
                "\(days(review.daysAwayFromHome)) never at \(VisitFindings.name(of: h)), "
                    + counted(review.nightsAwayFromHome, "night") + " elsewhere"
            } ?? "No home yet: add a place named home, or stay three nights somewhere.",
            noGazetteer: review.countries.isEmpty,
            countries: review.countries.map { .init(name: $0.name, days: days($0.days)) },
            cities: review.cities.prefix(20).map { .init(name: $0.name, country: $0.country, days: days($0.days)) },
            places: review.places.map { p in
                YearPage.Place(
                    name: VisitFindings.name(of: p), hours: String(format: "%.1f h", p.seconds / 3600),
                    visits: counted(p.visits, "visit"),
                    share: share(p.seconds, of: review.places.map(\.seconds).max() ?? 0),
                    locality: f.localities[p.id].map { "\($0.name), \($0.country)" })
            },
            longest: review.longestTrip.map { t in
                let ends = f.localities(of: t)
                return YearPage.Trip(
                    date: LocalDay.of(t.start, in: zone).description, when: LocalTime.format(t.start, zone: zone),
                    what: "\(t.mode.rawValue), \(distance(t.distance))"
                        + (ends.from.map { " from \($0)" } ?? "") + (ends.to.map { " to \($0)" } ?? ""))
            })
    }

    /// `value` as a whole percentage of `largest`, for a bar (at least 1).
    static func share(_ value: Double, of largest: Double) -> Int {
        largest > 0 ? max(1, Int((value / largest * 100).rounded())) : 0
    }

    /// What the calendar template shows: the year's totals and its months, each a grid of weeks
    /// from Monday, each day with its shade and a sentence of what it holds.
    struct CalendarPage: Encodable {
        struct Month: Encodable {
            let id: String
            let name: String
            let cells: [Cell]
            let from: String
            let to: String
        }
        /// A day of the grid, or a blank before the month's first day.
        struct Cell: Encodable {
            var blank: Bool? = nil
            var day: Int? = nil
            var date: String? = nil
            var level: Int? = nil
            var today: Bool? = nil
            var label: String? = nil
        }
        let user: String
        let year: Int
        let previous: Int
        let next: Int
        let months: [Month]
        let today: String
        let totals: String
    }

    static func calendarPage(_ calendar: DiaryCalendar, user: String, today: CivilDate) -> CalendarPage {
        let months = (1...12).map { month in
            let first = CivilDate(unchecked: calendar.year, month, 1)
            let blanks = (first.daysSinceEpoch % 7 + 7 + 3) % 7  // 1970-01-01 was a Thursday; Monday is 0
            var cells = Array(repeating: CalendarPage.Cell(blank: true), count: blanks)
            for d in 1...CivilDate.daysIn(month: month, year: calendar.year) {
                let date = CivilDate(unchecked: calendar.year, month, d)
                let amounts = calendar.days[date] ?? .init()
                var parts: [String] = []
                if amounts.rides > 0 {
                    let moving = LocalTime.hoursAndMinutes(amounts.seconds)
                    parts.append(counted(amounts.rides, "ride") + ", " + moving + " moving")
                    parts.append(counted(amounts.points, "point"))
                }
                if amounts.records > 0 { parts.append(counted(amounts.records, "record")) }
                cells.append(
                    CalendarPage.Cell(
                        day: d, date: date.description, level: amounts.level, today: date == today,
                        label: "\(DayReport.written(date)): "
                            + (parts.isEmpty ? "nothing recorded" : parts.joined(separator: ", "))))
            }
            let last = CivilDate(unchecked: calendar.year, month, CivilDate.daysIn(month: month, year: calendar.year))
            return CalendarPage.Month(
                id: monthID(first), name: DayReport.monthNames[month - 1], cells: cells, from: first.description,
                to: last.description)
        }
        let all = calendar.days.values
        let seconds = all.map(\.seconds).reduce(0, +)
        return CalendarPage(
            user: user, year: calendar.year, previous: calendar.year - 1, next: calendar.year + 1, months: months,
            today: today.description,
            totals: "\(counted(all.filter { $0.rides > 0 }.count, "day")) with rides, "
                + "\(LocalTime.hoursAndMinutes(seconds)) moving, \(counted(all.map(\.points).reduce(0, +), "point")), "
                + counted(all.map(\.records).reduce(0, +), "record"))
    }

    /// A month's anchor on the calendar page: `2026-11`.
    static func monthID(_ day: CivilDate) -> String { String(day.description.prefix(7)) }

    /// The export formats and their media types.
    static let exportFormats = [
        "gpx": "application/gpx+xml", "geojson": "application/geo+json", "kml": "application/vnd.google-earth.kml+xml",
    ]

    /// At most this many days go on one overlay map: a year (each ride is worked out once and
    /// kept, ``OverlayShapes``).
    static let overlayDays = 366

    /// How the served pages look: the reports' style, with the base map's tiles linked on this
    /// server.
    func style(imperial: Bool) -> ReportStyle {
        var style = ReportStyle()
        style.imperial = imperial
        if let tiles {
            style.tiles = tiles
            style.tilePath = "/tiles/"
        }
        return style
    }

    /// An edit of the day's stays and moves from the page's forms (`edit` = `times`, `split`,
    /// `merge`, `remove`, `add` or `undo`), hours as `HH:MM` on `day` (an end before its start is
    /// the next day's); the correction kept, nil for an undo.
    static func edit(
        _ edit: String, _ fields: [String: String], at: Int64?, day: CivilDate, zone: TimeZone,
        _ corrections: VisitCorrections
    ) async throws -> Int64? {
        // An hour on the page's day, or on the day before or after where the form says so.
        func hours(_ key: String) throws -> Int64 {
            let offset = fields[key + "_day"].flatMap { Int($0) }.map { max(-1, min(1, $0)) } ?? 0
            guard let ms = milliseconds(fields[key] ?? "", on: day.adding(days: offset), zone: zone) else {
                throw VisitCorrectionError.cannot("give the hours as hours and minutes, e.g. 14:30")
            }
            return ms
        }
        func span() throws -> (Int64, Int64) {
            let (from, to) = (try hours("from"), try hours("to"))
            return (from, to > from || fields["to_day"] != nil ? to : to + 86_400_000)
        }
        func moment() throws -> Int64 {
            guard let at else { throw VisitCorrectionError.noVisit(when: "the time the form gave") }
            return at
        }
        switch edit {
        case "times":
            let (from, to) = try span()
            return try await corrections.times(at: try moment(), from: from, to: to).correction
        case "split": return try await corrections.split(at: try moment(), from: try hours("split")).correction
        case "merge":
            guard let other = fields["other"].flatMap({ Int64($0) }) else {
                throw VisitCorrectionError.cannot("there is no stay after it that day to make one with")
            }
            return try await corrections.merge(at: try moment(), with: other).correction
        case "remove": return try await corrections.remove(at: try moment()).correction
        case "add":
            guard let lat = fields["lat"].flatMap(Double.init), (-90...90).contains(lat),
                let lon = fields["lon"].flatMap(Double.init), (-180...180).contains(lon)
            else { throw VisitCorrectionError.cannot("tap the map where the stay was, then add it") }
            let (from, to) = try span()
            return try await corrections.add(from: from, to: to, center: Coordinate(latitude: lat, longitude: lon))
                .correction
        case "undo":
            guard let id = fields["id"].flatMap({ Int64($0) }) else {
                throw VisitCorrectionError.cannot("the form named no edit to undo")
            }
            try await corrections.remove(id)
            return nil
        default: throw VisitCorrectionError.cannot("“\(edit)” is no edit of the day")
        }
    }

    /// The day page of `user`: read and rendered on the thread pool.
    func page(
        _ day: CivilDate, user: String, csrf: String, message: String? = nil, undo: Int64? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let (zone, imperial) = await login.local(user, zone: zone)
        let style = style(imperial: imperial)
        var web = WebDay(
            user: user, csrf: csrf, previous: "/day/\(day.adding(days: -1))", next: "/day/\(day.adding(days: 1))",
            home: "/", script: "/day.js", summaryAction: "/day/\(day)/summary", noteAction: { "/records/\($0)/notes" },
            deleteLink: { "/records/\($0)/delete" },
            markAction: "/day/\(day)/records", message: message, photoAction: { "/records/\($0)/photos" })
        let (store, rules) = (self.store, visitRules)
        // The day's visits and trips, found once: for the timeline and for the forms that put
        // them right.
        let devices = DeviceFilter(account: user)
        // The day where the person was (a day in London is London's day), its times in `zone`;
        // the account's own places, which a visit can be said to have been at.
        let (cut, until, own) = try await store.read { tx in
            (
                try DayZone.of(day, store: tx, devices: devices, zone: zone),
                try DayZone.end(of: day, store: tx, devices: devices, zone: zone),
                try tx.places(account: user)
            )
        }
        let from = LocalDay.start(day, in: cut)
        let found = try await VisitService.find(
            store: store, fromMilliseconds: from, toMilliseconds: until, devices: devices, rules: rules, zone: zone)
        web.correctAction = "/day/\(day)/corrections"
        web.undo = undo
        (web.movements, web.places) = Self.movements(found, own: own, zone: zone, day: from..<until)
        web.modes = TravelMode.allCases.map(\.rawValue)
        let input = try await DayReportInputs.load(
            day, store: store, zone: zone, cutIn: cut, until: until, imperial: imperial, embedPhotos: false,
            devices: devices, visits: rules, found: found, photoLink: { "/photos/\($0)/\($1)" })
        let html = DayReport.render(input, style: style, web: web)
        return WebPages.html(html, status: status)
    }

    /// The day's visits and trips for the page's correction forms, and the places a visit can be
    /// said to have been at: those found around the day, then the account's own places.
    static func movements(_ found: VisitFindings, own: [Place], zone: TimeZone, day: Range<Int64>)
        -> ([WebDay.Movement], [(value: String, name: String)])
    {
        // A span that begins before the day or ends after it says so.
        func span(_ start: Int64, _ end: Int64, there: TimeZone) -> String {
            LocalTime.clock(start, there: there, listing: zone) + (start < day.lowerBound ? " the day before" : "")
                + "–" + LocalTime.clock(end, there: there, listing: zone) + (end > day.upperBound ? " next day" : "")
        }
        let rows = found.movements.map { m -> WebDay.Movement in
            switch m {
            // Times where it happened (a visit abroad: its place's, with the offset).
            case .visit(let v):
                let there = found.zone(of: v) ?? zone
                var row = WebDay.Movement(
                    isTrip: false,
                    span: span(v.start, v.end, there: there),
                    title: found.name(of: v) + (found.address(of: v).map { " · \($0)" } ?? ""),
                    at: v.start + (v.end - v.start) / 2, corrected: v.placeCorrected,
                    place: v.place.map(String.init), placeName: v.place.flatMap { found.places[$0]?.name })
                (row.start, row.end, row.coordinates, row.spread) = (v.start, v.end, [v.center], v.spread)
                row.detail = LocalTime.hoursAndMinutes(v.seconds)
                (row.from, row.to) = (LocalTime.clock(v.start, zone: zone), LocalTime.clock(v.end, zone: zone))
                (row.fromDay, row.toDay) = (v.start < day.lowerBound ? -1 : 0, v.end > day.upperBound ? 1 : 0)
                return row
            case .trip(let t):
                let there = found.zone(at: t.start) ?? zone
                var row = WebDay.Movement(
                    isTrip: true,
                    span: span(t.start, t.end, there: there),
                    title: "\(t.mode.rawValue) \(VisitService.distance(t.distance))",
                    at: t.start + (t.end - t.start) / 2,
                    corrected: t.modeCorrected, mode: t.mode.rawValue)
                (row.start, row.end, row.coordinates) = (t.start, t.end, [t.from, t.to])
                row.detail = VisitService.distance(t.distance) + " · " + LocalTime.hoursAndMinutes(t.seconds)
                return row
            }
        }
        var places = found.places.values.sorted { $0.id < $1.id }.map { (String($0.id), VisitFindings.name(of: $0)) }
        for own in own where !places.contains(where: { $0.1 == own.name }) {
            places.append((own.name, own.name))
        }
        // A stay is made one with the next stay of the day.
        var withNext = rows
        for (i, row) in rows.enumerated() where !row.isTrip {
            withNext[i].next = rows[(i + 1)...].first { !$0.isTrip }?.at
        }
        return (withNext, places.map { (value: $0.0, name: $0.1) })
    }

    /// The largest photo taken, bytes.
    static let photoLimit = 32 << 20

    /// What a photo upload did.
    struct PhotoUpload: Encodable, Sendable {
        var record: Int64
        var photos: Int
        var name: String
    }

    /// The day page's photo forms: the chosen JPEG is sent as the body of `POST
    /// /records/ID/photos?name=FILE` with the session's CSRF token, its progress said by the
    /// form; the page shows it once it is on the record, or the sentence why not.
    static let photoScript = """

        (function(){document.querySelectorAll('form.photo-form').forEach(function(form){
        form.addEventListener('submit',function(e){e.preventDefault();var file=form.elements.photo.files[0];if(!file)return;
        var status=form.querySelector('.upload-status'),csrf=form.parentNode.querySelector('input[name=csrf]').value;
        var x=new XMLHttpRequest();x.open('POST',form.getAttribute('data-action')+'?name='+encodeURIComponent(file.name));
        x.setRequestHeader('X-CSRF-Token',csrf);x.setRequestHeader('Content-Type','image/jpeg');
        x.upload.onprogress=function(p){if(p.lengthComputable)status.textContent='Sending… '+Math.round(100*p.loaded/p.total)+' %'};
        x.onload=function(){if(x.status===200){location.reload();return}var m='';
        try{m=JSON.parse(x.responseText).error.message}catch(_){}status.textContent=m||('The upload failed ('+x.status+').')};
        x.onerror=function(){status.textContent='The upload did not get through; try again.'};x.send(file)})})})();
        """

    static func day(_ context: ServerContext) throws -> CivilDate {
        guard let text = context.parameters.get("date"), let day = CivilDate(iso: text) else {
            throw Refusal(.notFound, "A day is written YYYY-MM-DD, e.g. /day/2026-06-14.")
        }
        return day
    }

    /// The record id a path names.
    static func record(_ context: ServerContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw noRecord(0) }
        return id
    }

    static func noRecord(_ id: Int64) -> Refusal {
        Refusal(.notFound, "There is no record \(id) in your diary.")
    }

    /// `HH:MM` on `day` in `zone`, as ms since 1970 (nil: not a time of day).
    static func milliseconds(_ text: String, on day: CivilDate, zone: TimeZone) -> Int64? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour),
            (0..<60).contains(minute)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute)
        guard let date = calendar.date(from: components) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
