import GPSCore

/// Reads a CSV file of positions with a header line, as GPSLogger for Android and many other
/// loggers and spreadsheets write it, a row at a time:
///
/// - the delimiter is `,`, `;`, a tab or `|`, whichever the header has most of; fields may be
///   quoted (RFC 4180, `""` inside quotes, line breaks inside quotes);
/// - columns are found by name, case aside, with a unit in brackets allowed
///   (`speed (km/h)`): latitude `lat`/`latitude`, longitude `lon`/`lng`/`long`/`longitude` (in
///   decimal degrees, as E7 integers when the name ends in `e7`, with an N/S/E/W suffix or
///   prefix, or with a decimal comma when the delimiter is not a comma); the time `time`,
///   `timestamp`, `datetime`, `date_time`, `utc`, `tst`, `timestamp_ms`, `start_time`, or `date`
///   and `time` apart (ISO 8601, `YYYY-MM-DD HH:MM:SS`, the date as `YYYY/MM/DD` too, Unix seconds
///   or milliseconds; a time without a zone is UTC); a row whose `type` is `Visit` and that has an
///   `end_time` is there at its end too (a list of Google Timeline's visits and activities, as in
///   Freika/dawarich spec/fixtures/files/csv/quoted_headers.csv @f9f0ec48);
///   altitude `alt`/`altitude`/`ele`/`elevation`/`height` (m); `speed` (m/s, or km/h,
///   mph or knots when the header says so); `course`/`bearing`/`heading`/`track`/`cog` (°);
///   `accuracy`/`acc` (m); `hdop`; `satellites`/`sats`/`sats_used`;
/// - a row's `annotation`, `note`, `comment` or `description` is also a waypoint with that text;
/// - a row whose `kind` is `record` (Trailbook's own export) is a waypoint only, with its `note`
///   and its `fields` (a `key=value` line each);
/// - where the `ride` column's value changes a track begins, where `segment`'s does a segment
///   (Trailbook's own export: its rides and segments come back as they went out);
/// - the logs of Columbus (Visiontac) V-900, V-990, V-1000 and P-1 receivers, as GPSBabel's
///   `v900` format reads them (GPSBabel/gpsbabel v900.cc @000330cf): a header
///   `INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING[,FIX MODE,VALID,PDOP,HDOP,VDOP][,VOX]`
///   (`LATITUDEN/S` on the V-1000), fields padded with NUL bytes to a fixed width, the date
///   `YYMMDD` and time `HHMMSS` in UTC, the speed in km/h; a row tagged `C` or `D` (a point of
///   interest) or `V` (a voice memo, its `VOX` file named) is also a waypoint.
public final class CSVTrackReader: TrackFileReader {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public private(set) var elements = 0
    public private(set) var skipped: [String: Int] = [:]

    private var delimiter: UInt8 = 0
    private var columns: Columns?
    private var line = 1
    /// The row being read: its fields, the field being read, whether inside quotes.
    private var fields: [String] = []
    private var field: [UInt8] = []
    private var quoted = false
    private var afterQuote = false
    private var started = false
    private var rowLine = 1
    /// The last row's `ride` and `segment` values.
    private var lastRide: Substring?
    private var lastSegment: Substring?

    struct Columns {
        var latitude: Int
        var longitude: Int
        var latitudeE7 = false
        var longitudeE7 = false
        var time: Int?
        var date: Int?
        var altitude: Int?
        var speed: Int?
        var speedFactor = 1.0
        var course: Int?
        var accuracy: Int?
        var hdop: Int?
        var satellites: Int?
        var note: Int?
        var kind: Int?
        var fields: Int?
        var ride: Int?
        var segment: Int?
        var heartRate: Int?
        var cadence: Int?
        var power: Int?
        var temperature: Int?
        var activity: Int?
        /// A row's end (`end_time`) and kind (`type`): a visit is there until its end.
        var end: Int?
        var type: Int?
        /// A Columbus receiver's log (its `LATITUDE N/S` header): `YYMMDD` dates, `HHMMSS`
        /// times, speeds in km/h, a `TAG` column and a `VOX` column.
        var columbus = false
        var tag: Int?
        var vox: Int?
        var fixMode: Int?
        var pdop: Int?
        var vdop: Int?
    }

    public init() {}

    /// The header's names as the reader compares them: lower case, without a unit in brackets,
    /// spaces and dashes as `_`.
    static func normalized(_ name: String) -> String {
        var s = name.lowercased().replacingOccurrences(of: "\u{FEFF}", with: "")
        if let open = s.firstIndex(where: { $0 == "(" || $0 == "[" }) { s = String(s[..<open]) }
        s = String(Substring(s).trimmingSpaces)
        return String(s.map { $0 == " " || $0 == "-" ? "_" : $0 })
    }

    static let latitudeNames: Set = [
        "lat", "latitude", "latitudee7", "latitude_e7", "lat_e7", "late7", "latitude_n/s", "latituden/s",
    ]
    static let longitudeNames: Set = [
        "lon", "lng", "long", "longitude", "longitudee7", "longitude_e7", "lon_e7", "lng_e7", "lone7", "lnge7",
        "longitude_e/w", "longitudee/w",
    ]

    /// Whether `prefix` starts like such a file: a first line with a latitude and a longitude
    /// column, split by one of the delimiters.
    public static func looksLikeCSV(_ prefix: UnsafeRawBufferPointer) -> Bool {
        let head = String(decoding: prefix.prefix(4096), as: UTF8.self)
        guard let first = head.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first else { return false }
        let d = delimiter(of: Array(first.utf8))
        let names = first.split(separator: Character(Unicode.Scalar(d)), omittingEmptySubsequences: false).map {
            normalized(String($0).replacingOccurrences(of: "\"", with: ""))
        }
        return names.count >= 3 && names.contains(where: latitudeNames.contains)
            && names.contains(where: longitudeNames.contains)
    }

    /// The delimiter a header line has most of.
    static func delimiter(of header: [UInt8]) -> UInt8 {
        let candidates: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]
        return candidates.max { a, b in header.count(where: { $0 == a }) < header.count(where: { $0 == b }) } ?? 0x2C
    }

    public func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (TrackItem) throws -> Void) throws {
        var i = 0
        if !started {
            started = true
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        }
        if delimiter == 0 {
            // The header decides the delimiter: wait for its line end.
            field.append(contentsOf: bytes[i...])
            guard let end = field.firstIndex(of: 0x0A) else {
                if field.count > JSONScanner.maxTokenBytes {
                    throw Failure(description: "line 1 is over 1 MB long: it is not a CSV header")
                }
                return
            }
            delimiter = Self.delimiter(of: Array(field[..<end]))
            let rest = field
            field.removeAll()
            try rest.withUnsafeBytes { try scan($0, from: 0, handle) }
            return
        }
        try scan(bytes, from: i, handle)
    }

    public func finish(_ handle: (TrackItem) throws -> Void) throws {
        if delimiter == 0 {
            delimiter = Self.delimiter(of: field)
            let rest = field
            field.removeAll()
            try rest.withUnsafeBytes { try scan($0, from: 0, handle) }
        }
        if quoted {
            throw Failure(description: "line \(rowLine): a quoted field is not closed (the file looks cut short)")
        }
        if !field.isEmpty || !fields.isEmpty { try endRow(handle) }
        if columns == nil {
            throw Failure(description: "it has no header line naming a latitude and a longitude column")
        }
    }

    private func scan(_ bytes: UnsafeRawBufferPointer, from start: Int, _ handle: (TrackItem) throws -> Void) throws {
        var i = start
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            i += 1
            if quoted {
                if b == 0x22 {
                    quoted = false
                    afterQuote = true
                } else {
                    if b == 0x0A { line += 1 }
                    field.append(b)
                }
                continue
            }
            switch b {
            case 0x22:
                // `""` inside a quoted field is a quote; a quote opening a field starts quotes.
                if afterQuote { field.append(0x22) }
                if afterQuote || field.isEmpty { quoted = true }
                afterQuote = false
            case delimiter:
                endField()
            case 0x0A:
                try endRow(handle)
                line += 1
                rowLine = line
            case 0x0D, 0x00:
                // A Columbus receiver pads its fields with NUL bytes.
                break
            default:
                afterQuote = false
                field.append(b)
            }
            if field.count > JSONScanner.maxTokenBytes {
                throw Failure(description: "line \(rowLine): a field is over 1 MB long")
            }
        }
    }

    private func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
        afterQuote = false
    }

    private func skip(_ reason: String) { skipped[reason, default: 0] += 1 }

    private func endRow(_ handle: (TrackItem) throws -> Void) throws {
        endField()
        defer { fields.removeAll(keepingCapacity: true) }
        if fields.allSatisfy({ Substring($0).trimmingSpaces.isEmpty }) { return }
        guard let columns else {
            try header(fields)
            try handle(.track)
            return
        }
        elements += 1
        try row(fields, columns, handle)
    }

    private func header(_ names: [String]) throws {
        let normalized = names.map(Self.normalized)
        func index(_ wanted: Set<String>) -> Int? { normalized.firstIndex(where: wanted.contains) }
        guard let lat = index(Self.latitudeNames), let lon = index(Self.longitudeNames) else {
            throw Failure(
                description: "its header (line 1) names no latitude and longitude columns (such as lat and lon)")
        }
        var c = Columns(latitude: lat, longitude: lon)
        c.latitudeE7 = normalized[lat].hasSuffix("e7")
        c.longitudeE7 = normalized[lon].hasSuffix("e7")
        c.time = index([
            "timestamp_ms", "time", "timestamp", "datetime", "date_time", "utc", "time_utc", "utc_time", "gps_time",
            "tst", "recorded_at", "start_time", "begin_time",
        ])
        c.end = index(["end_time"])
        c.type = index(["type"])
        c.date = index(["date", "utc_date", "gps_date"])
        c.altitude = index(["alt", "altitude", "ele", "elevation", "height"])
        c.speed = index(["speed", "velocity", "vel"])
        if let s = c.speed {
            let raw = names[s].lowercased()
            if raw.contains("km/h") || raw.contains("kmh") || raw.contains("kph") {
                c.speedFactor = 1 / 3.6
            } else if raw.contains("mph") {
                c.speedFactor = 0.44704
            } else if raw.contains("knot") || raw.contains("kn)") || raw.contains("kts") {
                c.speedFactor = 1852.0 / 3600
            }
        }
        c.course = index(["course", "bearing", "heading", "track", "cog", "direction"])
        c.accuracy = index(["accuracy", "acc", "horizontal_accuracy", "hacc"])
        c.hdop = index(["hdop"])
        c.satellites = index(["satellites", "sats", "sats_used", "sat"])
        c.note = index(["annotation", "note", "notes", "comment", "description"])
        c.kind = index(["kind"])
        c.fields = index(["fields"])
        c.ride = index(["ride"])
        c.segment = index(["segment"])
        c.heartRate = index(["heart_rate", "hr", "heartrate", "bpm"])
        c.cadence = index(["cadence", "cad"])
        c.power = index(["power", "watts"])
        c.temperature = index(["temperature", "temp", "atemp"])
        c.activity = index(["activity", "activity_type", "motion"])
        c.columbus = normalized[lat].hasSuffix("n/s")
        if c.columbus {
            c.speedFactor = 1 / 3.6
            c.tag = index(["tag"])
            c.vox = index(["vox"])
            c.fixMode = index(["fix_mode", "fixmode"])
            c.pdop = index(["pdop"])
            c.vdop = index(["vdop"])
        }
        columns = c
    }

    /// A degree value: decimal (a decimal comma when the delimiter is not a comma), with an
    /// N/S/E/W letter before or after, or E7 integers.
    func degrees(_ text: Substring, e7: Bool) -> Double? {
        var s = text.trimmingSpaces
        var sign = 1.0
        if let last = s.last, "NSEWnsew".contains(last) {
            if "SWsw".contains(last) { sign = -1 }
            s = s.dropLast().trimmingSpaces
        } else if let first = s.first, "NSEWnsew".contains(first) {
            if "SWsw".contains(first) { sign = -1 }
            s = s.dropFirst().trimmingSpaces
        }
        let value: Double?
        if delimiter != 0x2C, s.contains(",") {
            value = Double(s.replacingOccurrences(of: ",", with: "."))
        } else {
            value = Double(s)
        }
        guard let v = value, v.isFinite else { return nil }
        return sign * (e7 ? v / 1e7 : v)
    }

    func number(_ text: Substring) -> Double? {
        let s = text.trimmingSpaces
        guard !s.isEmpty else { return nil }
        let v = delimiter != 0x2C && s.contains(",") ? Double(s.replacingOccurrences(of: ",", with: ".")) : Double(s)
        return v.flatMap { $0.isFinite ? $0 : nil }
    }

    private func row(_ fields: [String], _ c: Columns, _ handle: (TrackItem) throws -> Void) throws {
        func value(_ i: Int?) -> Substring? {
            guard let i, i < fields.count else { return nil }
            let v = Substring(fields[i]).trimmingSpaces
            return v.isEmpty ? nil : v
        }
        guard let latText = value(c.latitude), let lonText = value(c.longitude) else { return skip("no position") }
        guard let lat = degrees(latText, e7: c.latitudeE7), let lon = degrees(lonText, e7: c.longitudeE7) else {
            return skip("position unreadable")
        }
        guard TrackValues.inRange(lat, 90), TrackValues.inRange(lon, 180) else { return skip("position out of range") }
        var timeText = value(c.time)
        if c.columbus, let date = value(c.date), let t = timeText, let joined = Self.columbusTime(date, t) {
            timeText = Substring(joined)
        } else if let date = value(c.date), let t = timeText, !t.contains("-"), t.contains(":") {
            // YYYY/MM/DD as YYYY-MM-DD.
            let slashed = date.count == 10 && date.dropFirst(4).first == "/"
            let d = slashed ? date.replacingOccurrences(of: "/", with: "-") : String(date)
            timeText = Substring(d + "T" + t)
        } else if timeText == nil {
            timeText = value(c.date)
        }
        guard let t = timeText else { return skip("no time") }
        guard let ms = TrackValues.milliseconds(text: t) else { return skip("time unreadable") }
        var fix = Fix()
        fix.coordinate = Coordinate(latitude: lat, longitude: lon)
        fix.altitudeMSL = value(c.altitude).flatMap(number)
        fix.mode = fix.altitudeMSL == nil ? .twoD : .threeD
        UTCTimestamp.set(ms, on: &fix)
        if let s = value(c.speed).flatMap(number), s >= 0 { fix.speed = s * c.speedFactor }
        if let course = value(c.course).flatMap(number), course >= 0, course <= 360 { fix.track = course }
        if let a = value(c.accuracy).flatMap(number), a >= 0 {
            fix.latitudeError = a / 2.squareRoot()
            fix.longitudeError = a / 2.squareRoot()
        }
        if let h = value(c.hdop).flatMap(number), h >= 0 { fix.hdop = h }
        if let n = value(c.satellites).flatMap({ Int($0) }), n >= 0 { fix.satellitesUsed = n }
        if let p = value(c.pdop).flatMap(number), p >= 0 { fix.pdop = p }
        if let v = value(c.vdop).flatMap(number), v >= 0 { fix.vdop = v }
        if let mode = value(c.fixMode) { fix.mode = mode == "2D" ? .twoD : mode == "3D" ? .threeD : fix.mode }
        func whole(_ i: Int?) -> Int? { value(i).flatMap(number).map { Int($0.rounded()) } }
        fix.sensors =
            Sensors(
                heartRate: whole(c.heartRate), cadence: whole(c.cadence), power: whole(c.power),
                temperature: whole(c.temperature),
                activity: value(c.activity).flatMap { MotionActivity(word: String($0.trimmingSpaces)) }
            ).orNil
        if value(c.kind) == "record" {
            let fields = (value(c.fields) ?? "").split(whereSeparator: \.isNewline).compactMap {
                line -> TrackItem.Waypoint.Field? in
                let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return parts.count == 2 ? .init(key: String(parts[0]), value: String(parts[1])) : nil
            }
            return try handle(.waypoint(.init(fix: fix, text: value(c.note).map(String.init), fields: fields)))
        }
        if let ride = value(c.ride), ride != lastRide {
            try handle(.track)
            (lastRide, lastSegment) = (ride, value(c.segment))
        } else if let segment = value(c.segment), segment != lastSegment {
            if lastSegment != nil { try handle(.segment) }
            lastSegment = segment
        }
        try handle(.point(fix))
        if let note = value(c.note) { try handle(.waypoint(.init(fix: fix, text: String(note)))) }
        if value(c.type)?.lowercased() == "visit", let end = value(c.end).flatMap(TrackValues.milliseconds(text:)),
            end > ms
        {
            var until = fix
            UTCTimestamp.set(end, on: &until)
            try handle(.point(until))
        }
        switch value(c.tag) {
        case "C", "D": try handle(.waypoint(.init(fix: fix, name: "Point of interest")))
        case "V":
            let file = value(c.vox).map { String($0) + ".WAV" }
            try handle(.waypoint(.init(fix: fix, name: "Voice memo", text: file)))
        default: break
        }
    }

    /// A Columbus receiver's `YYMMDD` date and `HHMMSS` time (UTC, the years from 2000) as
    /// ISO 8601; nil when either is not six digits.
    static func columbusTime(_ date: Substring, _ time: Substring) -> String? {
        func digits(_ s: Substring) -> Bool { s.count == 6 && s.allSatisfy { $0.isASCII && $0.isNumber } }
        guard digits(date), digits(time) else { return nil }
        let d = Array(date)
        let t = Array(time)
        return "20\(d[0])\(d[1])-\(d[2])\(d[3])-\(d[4])\(d[5])T\(t[0])\(t[1]):\(t[2])\(t[3]):\(t[4])\(t[5])Z"
    }
}
