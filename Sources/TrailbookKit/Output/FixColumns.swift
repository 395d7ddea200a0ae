import Formats
import GPSCore
import Reports

/// The columns of `decode` output, in order: the CSV contract's
/// `time,mode,lat,lon,alt,speed,track` first, then the rest. One table serves CSV and JSON
/// Lines, so the two formats cannot drift apart.
enum FixColumn: CaseIterable {
    case time, mode, lat, lon, alt, speed, track, quality, hdop, vdop, pdop
    case satsUsed, satsView, geoidSep, errLat, errLon, errAlt

    /// Column name in CSV headers and JSON keys.
    var name: StaticString {
        switch self {
        case .time: "time"
        case .mode: "mode"
        case .lat: "lat"
        case .lon: "lon"
        case .alt: "alt"
        case .speed: "speed"
        case .track: "track"
        case .quality: "quality"
        case .hdop: "hdop"
        case .vdop: "vdop"
        case .pdop: "pdop"
        case .satsUsed: "sats_used"
        case .satsView: "sats_view"
        case .geoidSep: "geoid_sep"
        case .errLat: "err_lat"
        case .errLon: "err_lon"
        case .errAlt: "err_alt"
        }
    }
}

extension OutputBuffer {
    /// Writes the CSV header line, with `extra` column names after the fix columns.
    public mutating func appendCSVHeader(extra: [StaticString] = []) {
        for c in FixColumn.allCases {
            if c != .time { append(0x2C) }
            append(c.name)
        }
        for name in extra {
            append(0x2C)
            append(name)
        }
        append(0x0A)
    }

    /// Writes one fix as a CSV row, with `extra` integer columns and then `text` columns (quoted
    /// when they hold a comma or a quote); unknown values are empty fields.
    ///
    /// The columns of ``FixColumn`` written one after the other, each with its decimals as a
    /// constant (this runs for every row of `decode`: the rounding and digit loops then divide
    /// by constants); `appendJSONLine` goes through the table, and `DecodeGoldenTests` and
    /// `OutputNumberTests` hold the two to the same text.
    public mutating func appendCSVRow(_ fix: Fix, extra: [Int?] = [], text: [String?] = []) {
        if let t = fix.timeOfDay { append(date: fix.date, timeOfDay: t) }
        append(0x2C)
        append(int: fix.mode.rawValue)
        append(0x2C)
        if let c = fix.coordinate {
            append(c.latitude, decimals: 9)
            append(0x2C)
            append(c.longitude, decimals: 9)
        } else {
            append(0x2C)
        }
        append(0x2C)
        if let v = fix.altitudeMSL { append(v, decimals: 3) }
        append(0x2C)
        if let v = fix.speed { append(v, decimals: 3) }
        append(0x2C)
        if let v = fix.track { append(v, decimals: 3) }
        append(0x2C)
        if let q = fix.quality { append(int: q.rawValue) }
        append(0x2C)
        if let v = fix.hdop { append(v, decimals: 2) }
        append(0x2C)
        if let v = fix.vdop { append(v, decimals: 2) }
        append(0x2C)
        if let v = fix.pdop { append(v, decimals: 2) }
        append(0x2C)
        if let n = fix.satellitesUsed { append(int: n) }
        append(0x2C)
        if let n = fix.satellitesInView { append(int: n) }
        append(0x2C)
        if let v = fix.geoidSeparation { append(v, decimals: 3) }
        append(0x2C)
        if let v = fix.latitudeError { append(v, decimals: 3) }
        append(0x2C)
        if let v = fix.longitudeError { append(v, decimals: 3) }
        append(0x2C)
        if let v = fix.altitudeError { append(v, decimals: 3) }
        for value in extra {
            append(0x2C)
            if let value { append(int: value) }
        }
        for value in text {
            append(0x2C)
            guard let value else { continue }
            if value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) {
                append("\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
            } else {
                append(value)
            }
        }
        append(0x0A)
    }

    /// Writes one fix as a JSON object on one line, with `extra` integer keys and `text` string
    /// keys; unknown values are `null`.
    public mutating func appendJSONLine(
        _ fix: Fix, extra: [(StaticString, Int?)] = [], text: [(StaticString, String?)] = []
    ) {
        append(0x7B)
        for c in FixColumn.allCases {
            if c != .time { append(0x2C) }
            append(0x22)
            append(c.name)
            append("\":")
            appendValue(c, of: fix, json: true)
        }
        for (name, value) in extra {
            append(",\"")
            append(name)
            append("\":")
            if let value { append(int: value) } else { append("null") }
        }
        for (name, value) in text {
            append(",\"")
            append(name)
            append("\":")
            if let value { append(JSONText.quoted(value)) } else { append("null") }
        }
        append("}\n")
    }

    private mutating func appendValue(_ column: FixColumn, of fix: Fix, json: Bool) {
        func decimal(_ v: Double?, _ decimals: Int) {
            if let v, v.isFinite { append(v, decimals: decimals) } else if json { append("null") }
        }
        func integer(_ v: Int?) {
            if let v { append(int: v) } else if json { append("null") }
        }
        switch column {
        case .time:
            if let t = fix.timeOfDay {
                if json { append(0x22) }
                append(date: fix.date, timeOfDay: t)
                if json { append(0x22) }
            } else if json {
                append("null")
            }
        case .mode: integer(fix.mode.rawValue)
        case .lat: decimal(fix.coordinate?.latitude, 9)
        case .lon: decimal(fix.coordinate?.longitude, 9)
        case .alt: decimal(fix.altitudeMSL, 3)
        case .speed: decimal(fix.speed, 3)
        case .track: decimal(fix.track, 3)
        case .quality: integer(fix.quality?.rawValue)
        case .hdop: decimal(fix.hdop, 2)
        case .vdop: decimal(fix.vdop, 2)
        case .pdop: decimal(fix.pdop, 2)
        case .satsUsed: integer(fix.satellitesUsed)
        case .satsView: integer(fix.satellitesInView)
        case .geoidSep: decimal(fix.geoidSeparation, 3)
        case .errLat: decimal(fix.latitudeError, 3)
        case .errLon: decimal(fix.longitudeError, 3)
        case .errAlt: decimal(fix.altitudeError, 3)
        }
    }
}

/// The stored sensor values a point may carry (FIT, TCX, GPX extensions), as the columns `points`
/// and `export --format csv` add after `ride` and `segment`.
public enum SensorColumns {
    /// The columns' names: the five numbers of ``values(_:)`` (a bike computer's four sensors,
    /// the accuracy a phone or a file gave, metres), then the phone's word of ``texts(_:)`` (what
    /// its motion recognition said: walking, cycling, vehicle, ...).
    public static let names: [StaticString] = [
        "heart_rate", "cadence", "power", "temperature", "accuracy", "activity",
    ]

    /// The numbers of `sensors` in the order of ``names`` (nil: unknown, an empty field or null).
    public static func values(_ sensors: Sensors?) -> [Int?] {
        [sensors?.heartRate, sensors?.cadence, sensors?.power, sensors?.temperature, sensors?.accuracy]
    }

    /// The words of `sensors`, after the numbers in ``names``.
    public static func texts(_ sensors: Sensors?) -> [String?] { [sensors?.activity?.description] }

    /// ``names`` and ``values(_:)`` paired, for a JSON line.
    public static func keyed(_ sensors: Sensors?) -> [(StaticString, Int?)] { Array(zip(names, values(sensors))) }

    /// ``names`` and ``texts(_:)`` paired, for a JSON line.
    public static func keyedTexts(_ sensors: Sensors?) -> [(StaticString, String?)] {
        Array(zip(names.dropFirst(5), texts(sensors)))
    }
}
