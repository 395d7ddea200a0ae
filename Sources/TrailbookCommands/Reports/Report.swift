import ArgumentParser
import Foundation
import GPSCore
import Reports
import TrackStore
import TrailbookKit

/// `trailbook report day|overlay`: self-contained HTML pages.
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write HTML reports: a day's diary page, or many days' routes on one map.",
        subcommands: [DayPage.self, Overlay.self])

    /// Options shared by both pages.
    struct StyleOptions: ParsableArguments {
        @Option(help: "light or dark.")
        var theme: String = "light"

        @Option(help: "default, or colorblind (Okabe-Ito colours).")
        var palette: String = "default"

        @Option(help: "24h or 12h.")
        var timeFormat: String = "24h"

        @Option(help: "metric or imperial.")
        var units: String = "metric"

        @Option(help: "The day's timeline: timeline (lanes on a time axis) or list.")
        var view: String = "timeline"

        @Option(
            help: ArgumentHelp(
                "Base map: a tile URL template (https://tile.example/{z}/{x}/{y}.png, {s} for a/b/c), mbtiles:FILE, "
                    + "osm (OpenStreetMap) or none; the tiles are fetched now, cached, and embedded "
                    + "(default: maps.tiles, else a plain map).",
                valueName: "source"))
        var tiles: String?

        @Option(
            help: ArgumentHelp(
                "Shown on the map, as the tile provider asks (default: maps.attribution).", valueName: "text"))
        var attribution: String?

        @Option(
            help: ArgumentHelp(
                "Deeper zoom levels of tiles the page carries along the routes, for zooming in: 0 to 4 "
                    + "(default: maps.levels, else 2).", valueName: "n"))
        var tileLevels: Int?

        /// The base map of the page (`style.tiles`, `style.tileLevels`): from the options, else the
        /// config; the fetcher, for its warning, or nil for the plain map.
        func baseMap(_ style: inout ReportStyle, _ zoneOptions: ZoneOptions) throws -> TileFetcher? {
            let config = try zoneOptions.loaded()
            style.tileLevels = tileLevels ?? config.mapLevels
            // Unset: the plain map (a report fetches tiles only when asked to).
            do {
                let fetcher = try TileFetcher.configured(
                    tiles ?? config.mapTiles, attribution: attribution ?? config.mapAttribution,
                    cacheMegabytes: config.mapCacheMegabytes)
                style.tiles = fetcher
                return fetcher
            } catch {
                throw CommandFailure(
                    message: "--tiles: \(error).",
                    code: error.kind == .missingInput ? .noInput : .usage)
            }
        }

        /// One warning line for the tiles that could not be had (their squares are blank).
        static func warn(_ fetcher: TileFetcher?) {
            guard let fetcher, let first = fetcher.failures.first else { return }
            let count = fetcher.failures.count
            printError(
                "trailbook: warning: \(count) map tile\(count == 1 ? "" : "s") could not be had (\(first)); their squares are blank.")
        }

        func validate() throws {
            guard ReportStyle.Theme(rawValue: theme) != nil else { throw ValidationError("--theme is light or dark.") }
            guard Palette(rawValue: palette) != nil else {
                throw ValidationError("--palette is default or colorblind.")
            }
            guard ReportStyle.TimeFormat(rawValue: timeFormat) != nil else {
                throw ValidationError("--time-format is 24h or 12h.")
            }
            guard units == "metric" || units == "imperial" else {
                throw ValidationError("--units is metric or imperial.")
            }
            guard TimelineView(rawValue: view) != nil else { throw ValidationError("--view is timeline or list.") }
            if let tileLevels, !(0...4).contains(tileLevels) {
                throw ValidationError("--tile-levels is a whole number from 0 to 4.")
            }
        }

        var style: ReportStyle {
            var s = ReportStyle()
            s.theme = ReportStyle.Theme(rawValue: theme) ?? .light
            s.palette = Palette(rawValue: palette) ?? .default
            s.timeFormat = ReportStyle.TimeFormat(rawValue: timeFormat) ?? .h24
            s.imperial = units == "imperial"
            s.view = TimelineView(rawValue: view) ?? .timeline
            return s
        }
    }

    struct DayPage: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "day",
            abstract: "One self-contained HTML page for a day: map, rides, elevation, timeline, records.",
            discussion: """
                The page loads nothing from the network: no web fonts, no map tiles, no scripts from \
                elsewhere; the map is SVG drawn from the points (Web Mercator), over a base map whose \
                tiles --tiles fetches now and embeds (the zoom drawn, and --tile-levels deeper ones \
                along the routes). It pans, zooms and shows a track point's time, speed and \
                elevation under the pointer. --photos embed puts \
                the photos in the page (data: URIs, a bigger file); link points at the files in the \
                media folder. Written to -o FILE (default DATE.html) under a temporary name and renamed \
                when complete.
                """)

        @Argument(help: ArgumentHelp("The local date: \(LocalDate.accepted).", valueName: "date"))
        var date: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The HTML file.", valueName: "file"))
        var output: String?

        @Option(help: "embed or link.")
        var photos: String = "link"

        @OptionGroup var styleOptions: StyleOptions
        @OptionGroup var devices: DeviceOptions
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func validate() throws {
            try LocalDate.check(date, option: "")
            guard photos == "embed" || photos == "link" else { throw ValidationError("--photos is embed or link.") }
        }

        func run() async throws {
            let zone = try zoneOptions.zone()
            let day = try LocalDate.require(date, option: "", zone: zone)
            let store = try storeOptions.open()
            var style = styleOptions.style
            let fetcher = try styleOptions.baseMap(&style, zoneOptions)
            let filter = try await devices.filter(store, account: accountOptions.user)
            let suggest = SuggestTables(
                store: store, zone: zone, kinds: try zoneOptions.kinds(), now: UTCTimestamp.now(),
                tide: try zoneOptions.tide(), account: filter.account)
            // The day where the person was (a day in London is London's day), its times in `zone`.
            let (cut, until) = try await store.read { tx in
                (
                    try DayZone.of(day, store: tx, devices: filter, zone: zone),
                    try DayZone.end(of: day, store: tx, devices: filter, zone: zone)
                )
            }
            let input = try await DayReportInputs.load(
                day, store: store, zone: zone, cutIn: cut, until: until, imperial: style.imperial,
                embedPhotos: photos == "embed",
                devices: filter, suggest: suggest, visits: try zoneOptions.loaded().pipeline.visits)
            if input.rides.isEmpty && input.records.isEmpty && input.summary == nil {
                let (from, to) = LocalDay.range(day, in: cut)
                throw CommandFailure(
                    message:
                        "Nothing is stored on \(day) (\(zone.displayIdentifier)): no ride, record or summary; nothing "
                        + "was written. "
                        + (try await Rides.nearestDays(store, filter, from: from, to: to, zone: zone)),
                    code: .noInput)
            }
            let page = DayReport.render(input, style: style)
            StyleOptions.warn(fetcher)
            let path = output ?? "\(day).html"
            try Report.write(page, to: path)
            print(path)
        }
    }

    struct Overlay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "overlay",
            abstract: "Routes of many days on one map, a colour per day, with a day report for each.",
            discussion: """
                Writes DIR/index.html (the map and the list of days; selecting a day highlights its \
                route) and DIR/YYYY-MM-DD.html for each day with rides. Lines are simplified for the \
                drawn scale (Douglas-Peucker, half a pixel), so a year stays light.
                """)

        @Option(help: ArgumentHelp("First local day (\(LocalDate.accepted)).", valueName: "date"))
        var from: String?

        @Option(help: ArgumentHelp("Last local day, included.", valueName: "date"))
        var to: String?

        @Option(help: ArgumentHelp("Days, comma-separated.", valueName: "D,D,..."))
        var days: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write.", valueName: "dir"))
        var output: String

        @OptionGroup var styleOptions: StyleOptions
        @OptionGroup var devices: DeviceOptions
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func validate() throws {
            if (days == nil) == (from == nil && to == nil) || (from == nil) != (to == nil) {
                throw ValidationError("Give --from D --to D, or --days D,D,...")
            }
            for (option, d) in [("--from", from), ("--to", to)]
                + (days?.split(separator: ",").map { ("--days", String($0)) } ?? [])
            {
                if let d { try LocalDate.check(d, option: option) }
            }
        }

        func run() async throws {
            let zone = try zoneOptions.zone()
            let store = try storeOptions.open()
            var wanted: [CivilDate]
            if let days {
                wanted = try days.split(separator: ",").map {
                    try LocalDate.require(String($0), option: "--days", zone: zone)
                }
            } else {
                wanted = []
                var d = try LocalDate.require(from!, option: "--from", zone: zone)
                let last = try LocalDate.require(to!, option: "--to", zone: zone)
                guard d <= last else { throw CommandFailure(message: "--to must not be before --from.", code: .usage) }
                while d <= last {
                    wanted.append(d)
                    d = d.adding(days: 1)
                }
            }
            let made = mkdir(output, 0o755) == 0
            if !made && errno != EEXIST {
                throw CommandFailure(
                    message: "Cannot create the folder \(output): \(String(cString: strerror(errno))).",
                    code: .cannotCreate)
            }
            let span = days == nil ? wanted.first.map { "Trailbook \($0) to \(wanted.last!)" } : nil
            var style = styleOptions.style
            let fetcher = try styleOptions.baseMap(&style, zoneOptions)
            defer { StyleOptions.warn(fetcher) }
            do {
                let filter = try await devices.filter(store, account: accountOptions.user)
                _ = try await OverlayPages.render(
                    wanted, title: { count in span ?? "Trailbook: \(count) days" },
                    store: store, zone: zone, style: style, devices: filter,
                    suggest: SuggestTables(
                        store: store, zone: zone, kinds: try zoneOptions.kinds(), now: UTCTimestamp.now(),
                        tide: try zoneOptions.tide(), account: filter.account)
                ) { name, html in try Report.write(html, to: output + "/" + name) }
            } catch {
                // Nothing was written: a folder this run made goes again.
                if made { rmdir(output) }
                throw error
            }
            print(output + "/index.html")
        }
    }

    /// Writes `text` to `path` under a temporary name, renamed when complete.
    static func write(_ text: String, to path: String) throws {
        let file = try OutputFile(path: path, suffix: "html")
        var out = OutputBuffer(fd: file.fd)
        out.append(text)
        try out.flush()
        try file.commit()
    }
}
