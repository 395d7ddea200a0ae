import Foundation
import GPSCore

/// One configuration key: where it lives, its unit, how it prints, and how a value is checked
/// and applied. The table drives the TOML reader, the command-line overrides and `config show`.
struct ConfigKey: Sendable {
    let section: String
    let name: String
    /// Unit and accepted values, for messages and `config show`.
    let unit: String
    let render: @Sendable (TrailbookConfig) -> String
    let apply: @Sendable (ConfigValue, inout TrailbookConfig) throws(ConfigProblem) -> Void

    static let sections = [
        "collection", "accuracy", "jumps", "segments", "active_hours", "time", "events", "alerts", "visits", "tide",
        "maps",
    ]

    static let all: [ConfigKey] = [
        number("collection", "interval", "seconds, 0 or more (0 keeps every fix)", min: 0, \.interval),
        number("collection", "min_distance", "metres, 0 or more (0 turns it off)", min: 0, \.minDistance),
        optionalNumber("accuracy", "max_hdop", "HDOP above 0, or false to turn off", \.maxHDOP),
        ConfigKey(
            section: "accuracy", name: "min_satellites", unit: "satellites, 0 or more (0 turns it off)",
            render: { c in String(c.pipeline.minSatellites ?? 0) },
            apply: { v, c throws(ConfigProblem) in
                guard let n = v.int, n >= 0, n <= 64 else {
                    throw ConfigProblem(text: "must be a whole number from 0 to 64.")
                }
                c.pipeline.minSatellites = n == 0 ? nil : n
            }),
        ConfigKey(
            section: "accuracy", name: "min_mode", unit: "2 (2D fixes kept) or 3 (3D only)",
            render: { c in String(c.pipeline.minMode) },
            apply: { v, c throws(ConfigProblem) in
                guard let n = v.int, n == 2 || n == 3 else {
                    throw ConfigProblem(text: "must be 2 (2D and 3D fixes) or 3 (3D only).")
                }
                c.pipeline.minMode = n
            }),
        optionalNumber(
            "accuracy", "max_error", "metres of horizontal error estimate above 0, or false", \.maxErrorMetres),
        number("jumps", "max_speed", "metres per second above 0", min: 0, exclusive: true, \.maxSpeed),
        ConfigKey(
            section: "jumps", name: "reanchor_after", unit: "fixes, 2 to 20",
            render: { c in String(c.pipeline.reanchorAfter) },
            apply: { v, c throws(ConfigProblem) in
                guard let n = v.int, (2...20).contains(n) else {
                    throw ConfigProblem(text: "must be a whole number from 2 to 20.")
                }
                c.pipeline.reanchorAfter = n
            }),
        number("segments", "gap", "seconds above 0", min: 0, exclusive: true, \.segmentGap),
        number("segments", "ride_gap", "seconds above 0", min: 0, exclusive: true, \.rideGap),
        number("segments", "ride_stop", "seconds above 0", min: 0, exclusive: true, \.rideStop),
        number("segments", "stop_radius", "metres above 0", min: 0, exclusive: true, \.stopRadius),
        ConfigKey(
            section: "active_hours", name: "windows", unit: "list of \"HH:MM-HH:MM\" in local time; [] records always",
            render: { c in "[" + c.windows.map { "\"\($0)\"" }.joined(separator: ", ") + "]" },
            apply: { v, c throws(ConfigProblem) in
                guard let list = v.strings else {
                    throw ConfigProblem(text: "must be a list of windows such as [\"07:00-12:00\", \"22:00-06:00\"].")
                }
                var windows: [ActiveHours.Window] = []
                for text in list {
                    guard let w = ActiveHours.Window(text) else {
                        throw ConfigProblem(
                            text:
                                "\"\(text)\" is not a window; write HH:MM-HH:MM with hours 00-23 (24:00 as an end), e.g. \"07:00-12:00\" or \"22:00-06:00\"."
                        )
                    }
                    windows.append(w)
                }
                c.windows = windows
            }),
        ConfigKey(
            section: "active_hours", name: "weekdays",
            unit: "list of mon, tue, wed, thu, fri, sat, sun; [] is every day",
            render: { c in "[" + c.weekdays.sorted().map { "\"\(weekdayNames[$0 - 1])\"" }.joined(separator: ", ") + "]"
            },
            apply: { v, c throws(ConfigProblem) in
                guard let list = v.strings else {
                    throw ConfigProblem(text: "must be a list such as [\"mon\", \"tue\"].")
                }
                var days: Set<Int> = []
                for text in list {
                    guard let i = weekdayNames.firstIndex(of: text.lowercased()) else {
                        throw ConfigProblem(
                            text: "\"\(text)\" is not a weekday; use mon, tue, wed, thu, fri, sat or sun.")
                    }
                    days.insert(i + 1)
                }
                c.weekdays = days
            }),
        ConfigKey(
            section: "time", name: "zone", unit: "IANA time zone such as \"Europe/Zurich\", or \"system\"",
            render: { c in "\"\(c.timeZone.displayIdentifier)\"" },
            apply: { v, c throws(ConfigProblem) in
                guard let name = v.string else {
                    throw ConfigProblem(text: "must be a time zone name such as \"Europe/Zurich\".")
                }
                if name == "system" {
                    c.timeZone = .current
                } else if let zone = TimeZone(identifier: name) {
                    c.timeZone = zone
                } else {
                    throw ConfigProblem(
                        text:
                            "\"\(name)\" is not a known time zone; use an IANA name such as \"Europe/Zurich\" or \"America/New_York\"."
                    )
                }
            }),
        number("events", "stop_after", "seconds above 0", min: 0, exclusive: true, \.events.stopAfter),
        number("events", "stop_radius", "metres above 0", min: 0, exclusive: true, \.events.stopRadius),
        number("events", "move_after", "seconds above 0", min: 0, exclusive: true, \.events.moveAfter),
        number("events", "hysteresis", "metres, 0 or more", min: 0, \.events.hysteresis),
        number("events", "depart_after", "seconds above 0", min: 0, exclusive: true, \.events.departAfter),
        number("events", "arrive_after", "seconds above 0", min: 0, exclusive: true, \.events.arriveAfter),
        number("events", "fix_lost_after", "seconds above 0", min: 0, exclusive: true, \.events.fixLostAfter),
        number(
            "events", "range_error", "metres per unit of HDOP, above 0", min: 0, exclusive: true, \.events.rangeError),
        number("events", "unknown_accuracy", "metres above 0", min: 0, exclusive: true, \.events.unknownAccuracy),
        number("events", "battery_low", "percent, 0 or more", min: 0, \.events.batteryLow),
        number("events", "offline_after", "seconds above 0", min: 0, exclusive: true, \.events.offlineAfter),
        number("events", "moving_within", "seconds above 0", min: 0, exclusive: true, \.events.movingWithin),
        number("alerts", "retry_max", "seconds above 0", min: 0, exclusive: true, \.alerts.retryMax),
        number("alerts", "give_up_after", "seconds above 0", min: 0, exclusive: true, \.alerts.giveUpAfter),
        number("alerts", "timeout", "seconds above 0", min: 0, exclusive: true, \.alerts.timeout),
        number("alerts", "max_delay", "seconds above 0", min: 0, exclusive: true, \.alerts.maxDelay),
        number("visits", "radius", "metres above 0", min: 0, exclusive: true, \.visits.radius),
        number("visits", "min_duration", "seconds above 0", min: 0, exclusive: true, \.visits.minDuration),
        number("visits", "max_gap", "seconds, 0 or more", min: 0, \.visits.maxGap),
        number("visits", "max_accuracy", "metres above 0", min: 0, exclusive: true, \.visits.maxAccuracy),
        number("visits", "place_radius", "metres above 0", min: 0, exclusive: true, \.visits.placeRadius),
        ConfigKey(
            section: "visits", name: "street_names",
            unit: "nominatim:URL or photon:URL of your own geocoder's reverse endpoint, or \"\" for none",
            render: { c in "\"\(c.streetNames ?? "")\"" },
            apply: { v, c throws(ConfigProblem) in
                guard let text = v.string else { throw ConfigProblem(text: "must be a string (\"\" for none).") }
                guard !text.isEmpty else {
                    c.streetNames = nil
                    return
                }
                let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
                guard parts.count == 2, ["nominatim", "photon"].contains(parts[0]),
                    let url = URL(string: parts[1]), ["http", "https"].contains(url.scheme ?? ""), url.host != nil
                else {
                    throw ConfigProblem(
                        text: "must be nominatim:URL or photon:URL with an http(s) URL, e.g. "
                            + "\"nominatim:http://localhost:8080/reverse\" (\"\" for none).")
                }
                c.streetNames = text
            }),
        text(
            "tide", "station",
            "a tide station's name or id (trailbook tide stations --near LAT,LON), or \"\" for no tide",
            \.tideStation),
        text("tide", "file", "a harmonic constants file (.tcd), or \"\" for Debian's xtide-data", \.tideFile),
        text(
            "maps", "tiles",
            "a tile URL template with {z}, {x}, {y} (and {s}), mbtiles:FILE, osm (OpenStreetMap) or none",
            \.mapTiles),
        text("maps", "attribution", "text shown on the map, as the tile provider asks", \.mapAttribution),
        whole("maps", "cache_mb", "megabytes", 1...Int.max, \.mapCacheMegabytes),
        whole("maps", "levels", "zoom levels", 0...4, \.mapLevels),
        whole("maps", "views_every", "seconds", 1...Int.max, \.mapViewsEvery),
    ]

    /// A whole number of `units` in `range` (unbounded above: "1 or more").
    static func whole(
        _ section: String, _ name: String, _ units: String, _ range: ClosedRange<Int>,
        _ path: WritableKeyPath<TrailbookConfig, Int> & Sendable
    ) -> ConfigKey {
        let bounds =
            range.upperBound == .max ? "\(range.lowerBound) or more" : "\(range.lowerBound) to \(range.upperBound)"
        return ConfigKey(
            section: section, name: name, unit: "\(units), \(bounds)", render: { c in String(c[keyPath: path]) },
            apply: { v, c throws(ConfigProblem) in
                guard let n = v.int, range.contains(n) else {
                    throw ConfigProblem(
                        text: range.upperBound == .max
                            ? "must be a whole number of \(units), \(bounds)."
                            : "must be a whole number of \(units) from \(range.lowerBound) to \(range.upperBound).")
                }
                c[keyPath: path] = n
            })
    }

    /// A text key; "" leaves it unset.
    static func text(
        _ section: String, _ name: String, _ unit: String, _ path: WritableKeyPath<TrailbookConfig, String?> & Sendable
    ) -> ConfigKey {
        ConfigKey(
            section: section, name: name, unit: unit, render: { c in "\"\(c[keyPath: path] ?? "")\"" },
            apply: { v, c throws(ConfigProblem) in
                guard let text = v.string else { throw ConfigProblem(text: "must be a string (\"\" for none).") }
                c[keyPath: path] = text.isEmpty ? nil : text
            })
    }

    static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    static func number(
        _ section: String, _ name: String, _ unit: String, min: Double, exclusive: Bool = false,
        _ path: WritableKeyPath<PipelineConfiguration, Double> & Sendable
    ) -> ConfigKey {
        ConfigKey(
            section: section, name: name, unit: unit, render: { c in format(c.pipeline[keyPath: path]) },
            apply: { v, c throws(ConfigProblem) in
                guard let x = v.double, x.isFinite, exclusive ? x > min : x >= min else {
                    throw ConfigProblem(
                        text: "must be a number \(exclusive ? "above" : "of at least") \(format(min)) (\(unit)).")
                }
                c.pipeline[keyPath: path] = x
            })
    }

    static func optionalNumber(
        _ section: String, _ name: String, _ unit: String,
        _ path: WritableKeyPath<PipelineConfiguration, Double?> & Sendable
    ) -> ConfigKey {
        ConfigKey(
            section: section, name: name, unit: unit, render: { c in c.pipeline[keyPath: path].map(format) ?? "false" },
            apply: { v, c throws(ConfigProblem) in
                if v.bool == false {
                    c.pipeline[keyPath: path] = nil
                    return
                }
                guard let x = v.double, x.isFinite, x > 0 else {
                    throw ConfigProblem(text: "must be a number above 0, or false to turn it off.")
                }
                c.pipeline[keyPath: path] = x
            })
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
