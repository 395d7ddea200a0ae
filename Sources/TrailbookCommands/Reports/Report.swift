import ArgumentParser
import Foundation
import GPSCore
import Reports
import TrackStore
import TrailbookKit

/// `trailbook report day|overlay`: self-contained HTML pages.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
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
        }

        var style: ReportStyle {
            var s = ReportStyle()
            s.theme = ReportStyle.Theme(rawValue: theme) ?? .light
            s.palette = Palette(rawValue: palette) ?? .default
            s.timeFormat = ReportStyle.TimeFormat(rawValue: timeFormat) ?? .h24
            s.imperial = units == "imperial"
            return s
        }
    }

    struct DayPage: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "day",
            abstract: "One self-contained HTML page for a day: map, rides, elevation, timeline, records.",
            discussion: """
                The page loads nothing from the network: no web fonts, no map tiles, no scripts from \
                elsewhere; the map is SVG drawn from the points (Web Mercator). --photos embed puts \
                the photos in the page (data: URIs, a bigger file); link points at the files in the \
                media folder. Written to -o FILE (default DATE.html) under a temporary name and renamed \
                when complete.
                """)

        @Argument(help: ArgumentHelp("The local date.", valueName: "YYYY-MM-DD"))
        var date: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The HTML file.", valueName: "file"))
        var output: String?

        @Option(help: "embed or link.")
        var photos: String = "link"

        @OptionGroup var styleOptions: StyleOptions
        @OptionGroup var devices: DeviceOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func validate() throws {
            guard CivilDate(iso: date) != nil else {
                throw ValidationError("The date is YYYY-MM-DD, for example 2026-06-14; got '\(date)'.")
            }
            guard photos == "embed" || photos == "link" else { throw ValidationError("--photos is embed or link.") }
        }

        func run() throws {
            let zone = try zoneOptions.zone()
            let store = try storeOptions.open()
            let day = CivilDate(iso: date)!
            let style = styleOptions.style
            let input = try DayReportInputs.load(
                day, store: store, zone: zone, imperial: style.imperial, embedPhotos: photos == "embed",
                devices: try devices.filter(store))
            let page = DayReport.render(input, style: style)
            let path = output ?? "\(date).html"
            try Report.write(page, to: path)
            print(path)
        }
    }

    struct Overlay: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Routes of many days on one map, a colour per day, with a day report for each.",
            discussion: """
                Writes DIR/index.html (the map and the list of days; selecting a day highlights its \
                route) and DIR/YYYY-MM-DD.html for each day with rides. Lines are simplified for the \
                drawn scale (Douglas-Peucker, half a pixel), so a year stays light.
                """)

        @Option(help: ArgumentHelp("First local day.", valueName: "YYYY-MM-DD"))
        var from: String?

        @Option(help: ArgumentHelp("Last local day, included.", valueName: "YYYY-MM-DD"))
        var to: String?

        @Option(help: ArgumentHelp("Days, comma-separated.", valueName: "D,D,..."))
        var days: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write.", valueName: "dir"))
        var output: String

        @OptionGroup var styleOptions: StyleOptions
        @OptionGroup var devices: DeviceOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func validate() throws {
            if (days == nil) == (from == nil && to == nil) || (from == nil) != (to == nil) {
                throw ValidationError("Give --from D --to D, or --days D,D,...")
            }
            for d in [from, to].compactMap({ $0 }) + (days?.split(separator: ",").map(String.init) ?? [])
            where CivilDate(iso: d) == nil {
                throw ValidationError("'\(d)' is not a date; use YYYY-MM-DD.")
            }
        }

        func run() throws {
            let zone = try zoneOptions.zone()
            let store = try storeOptions.open()
            var wanted: [CivilDate]
            if let days {
                wanted = days.split(separator: ",").compactMap { CivilDate(iso: String($0)) }
            } else {
                wanted = []
                var d = CivilDate(iso: from!)!
                let last = CivilDate(iso: to!)!
                while d <= last {
                    wanted.append(d)
                    d = d.adding(days: 1)
                }
            }
            if mkdir(output, 0o755) != 0 && errno != EEXIST {
                throw CommandFailure(
                    message: "Cannot create the folder \(output): \(String(cString: strerror(errno))).",
                    code: .cannotCreate)
            }
            _ = try OverlayPages.render(
                wanted, title: { count in days != nil ? "Trailbook: \(count) days" : "Trailbook \(from!) to \(to!)" },
                store: store, zone: zone, style: styleOptions.style, devices: try devices.filter(store)
            ) { name, html in try Report.write(html, to: output + "/" + name) }
            print(output + "/index.html")
        }
    }

    /// Writes `text` to `path` under a temporary name, renamed when complete.
    static func write(_ text: String, to path: String) throws {
        let file = try OutputFile(path: path)
        var out = OutputBuffer(fd: file.fd)
        out.append(text)
        try out.flush()
        try file.commit()
    }
}
