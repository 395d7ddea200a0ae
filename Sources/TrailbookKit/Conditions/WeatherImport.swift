import Foundation
import GPSCore
import TrackModel

/// Why a weather file cannot be read; nothing is written then.
public enum WeatherImportError: ServiceFailure, Equatable {
    case unreadable(path: String, reason: String)
    case noTimeColumn(path: String)
    case noValueColumn(path: String)
    case badTime(path: String, line: Int, text: String)
    case badNumber(path: String, line: Int, column: String, text: String)
    case empty(path: String)

    public var kind: FailureKind {
        switch self {
        case .unreadable: return .missingInput
        default: return .badData
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "Cannot read the weather file \(path): \(reason)."
        case .noTimeColumn(let path):
            return "\(path) has no time column in its header line; name one time (or date, timestamp)."
        case .noValueColumn(let path):
            return "\(path) has none of the columns temperature_c, pressure_hpa, wind_speed_ms, wind_dir_deg, "
                + "cloud_pct in its header line; name at least one (docs/CONDITIONS.md lists the accepted names)."
        case .badTime(let path, let line, let text):
            return "\(path):\(line): '\(text)' is not a time; write ISO 8601 or local YYYY-MM-DD HH:MM[:SS]."
        case .badNumber(let path, let line, let column, let text):
            return "\(path):\(line): \(column) '\(text)' is not a number; leave it empty when there is no reading."
        case .empty(let path): return "\(path) has a header but no readings."
        }
    }
}

/// Reads a weather export (CSV: a time column and any of temperature, pressure, wind speed and
/// direction, cloud) and gives every record in its span the interpolated values (source
/// `imported`) and the pressure trend over the 3 hours before it.
public struct WeatherImportService: Sendable {
    public let store: any TrackStoring
    public let zone: TimeZone

    /// Readings further apart than this around a record are not interpolated across.
    public static let maximumGap: Int64 = 3 * 3_600_000
    /// A change of more than this over 3 h is rising or falling (WMO's "steady" is within ±1 hPa).
    public static let steadyWithin = 1.0

    /// Whose diary the readings and records are: an account of the store; nil for its own user.
    public let account: String?

    public init(store: any TrackStoring, zone: TimeZone, account: String? = nil) {
        self.store = store
        self.zone = zone
        self.account = account
    }

    /// Column names accepted for each quantity (lower case; units: °C, hPa, m/s, degrees from which
    /// the wind blows, percent). Made on each use (key paths are not Sendable, so no shared constant).
    static var columns: [(key: WritableKeyPath<WeatherReading, Double?>, names: [String])] {
        [
            (\.temperature, ["temperature_c", "temp_c", "temperature", "temp", "air_temperature"]),
            (\.pressure, ["pressure_hpa", "pressure", "pressure_msl", "sea_level_pressure", "qnh"]),
            (\.windSpeed, ["wind_speed_ms", "wind_speed", "windspeed", "wind_ms"]),
            (\.windDirection, ["wind_dir_deg", "wind_direction", "wind_dir", "winddirection"]),
            (\.cloud, ["cloud_pct", "cloud", "cloud_cover", "clouds"]),
        ]
    }

    public func read(_ path: String) throws(WeatherImportError) -> [WeatherReading] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let headerLine = lines.first else { throw .empty(path: path) }
        let separator: Character = headerLine.contains(";") && !headerLine.contains(",") ? ";" : ","
        func cells(_ line: Substring) -> [String] {
            line.split(separator: separator, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        let header = cells(headerLine).map { $0.lowercased() }
        guard let timeColumn = header.firstIndex(where: { ["time", "date", "timestamp", "datetime"].contains($0) })
        else { throw .noTimeColumn(path: path) }
        let valueColumns = Self.columns.compactMap { column in
            header.firstIndex { column.names.contains($0) }.map { (column.key, $0) }
        }
        guard !valueColumns.isEmpty else { throw .noValueColumn(path: path) }
        var readings: [WeatherReading] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let fields = cells(line)
            let timeText = timeColumn < fields.count ? fields[timeColumn] : ""
            guard let ms = LocalTime.parse(timeText, zone: zone) else {
                throw .badTime(path: path, line: index + 1, text: timeText)
            }
            var reading = WeatherReading(milliseconds: ms)
            for (key, column) in valueColumns where column < fields.count && !fields[column].isEmpty {
                guard let value = Double(fields[column]), value.isFinite else {
                    throw .badNumber(path: path, line: index + 1, column: header[column], text: fields[column])
                }
                reading[keyPath: key] = value
            }
            readings.append(reading)
        }
        guard !readings.isEmpty else { throw .empty(path: path) }
        return readings.sorted { $0.milliseconds < $1.milliseconds }
    }

    /// The value at `ms` interpolated linearly between the readings around it that have one
    /// (at most ``maximumGap`` apart); nil outside them.
    static func interpolate(_ readings: [WeatherReading], _ key: KeyPath<WeatherReading, Double?>, at ms: Int64)
        -> Double?
    {
        let known = readings.filter { $0[keyPath: key] != nil }
        guard let after = known.firstIndex(where: { $0.milliseconds >= ms }) else { return nil }
        let b = known[after]
        if b.milliseconds == ms { return b[keyPath: key] }
        guard after > 0 else { return nil }
        let a = known[after - 1]
        guard b.milliseconds - a.milliseconds <= maximumGap else { return nil }
        let f = Double(ms - a.milliseconds) / Double(b.milliseconds - a.milliseconds)
        return a[keyPath: key]! + f * (b[keyPath: key]! - a[keyPath: key]!)
    }

    /// The conditions stored readings give a moment: a station's (source `imported`), overridden
    /// key by key by those measured by `devices` (source `device`, e.g. a phone's barometer);
    /// other devices' readings are not used.
    public static func conditions(_ readings: [WeatherReading], at ms: Int64, devices: Set<DeviceID>)
        -> [ConditionValue]
    {
        let station = conditions(readings.filter { $0.device == nil }, at: ms)
        let measured = conditions(
            readings.filter { $0.device.map(devices.contains) ?? false }, at: ms, source: .device)
        let keys = Set(measured.map(\.key))
        return station.filter { !keys.contains($0.key) } + measured
    }

    /// The conditions the readings give a moment (empty outside them).
    public static func conditions(
        _ readings: [WeatherReading], at ms: Int64, source: ConditionValue.Source = .imported
    ) -> [ConditionValue] {
        func value(_ key: String, _ number: Double?, _ places: Double = 10) -> ConditionValue? {
            number.map { ConditionValue(key: key, value: .number(($0 * places).rounded() / places), source: source) }
        }
        var values: [ConditionValue?] = [
            value("weather.temperature_c", interpolate(readings, \.temperature, at: ms)),
            value("weather.wind_speed_ms", interpolate(readings, \.windSpeed, at: ms)),
            value("weather.cloud_pct", interpolate(readings, \.cloud, at: ms), 1),
        ]
        if let pressure = interpolate(readings, \.pressure, at: ms) {
            values.append(value("weather.pressure_hpa", pressure))
            if let before = interpolate(readings, \.pressure, at: ms - 3 * 3_600_000) {
                let change = pressure - before
                values.append(value("weather.pressure_change_3h_hpa", change))
                let trend = change > steadyWithin ? "rising" : (change < -steadyWithin ? "falling" : "steady")
                values.append(ConditionValue(key: "weather.pressure_trend", value: .text(trend), source: source))
            }
        }
        // Directions are not averaged across north: the nearer reading's, within the gap.
        let directions = readings.filter { $0.windDirection != nil }
        if let near = directions.min(by: { abs($0.milliseconds - ms) < abs($1.milliseconds - ms) }),
            abs(near.milliseconds - ms) <= maximumGap / 2, let degrees = near.windDirection
        {
            values.append(value("weather.wind_dir_deg", degrees, 1))
            values.append(
                ConditionValue(key: "weather.wind_octant", value: .text(octant(degrees)), source: source))
        }
        return values.compactMap { $0 }
    }

    /// N, NE, E, SE, S, SW, W, NW: where the wind comes from.
    public static func octant(_ degrees: Double) -> String {
        let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let d = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return names[Int((d + 22.5) / 45) % 8]
    }

    public struct Outcome: Sendable {
        public var readings: Int
        /// Readings the store did not have yet (0 with a dry run).
        public var newReadings = 0
        public var first: Int64
        public var last: Int64
        /// Record id and the values it got.
        public var records: [(id: Int64, values: [ConditionValue])]
    }

    /// Reads the file, then sets the values on every record in its span (nothing is written when
    /// the file has an error, or with `dryRun`).
    public func importFile(_ path: String, dryRun: Bool = false) async throws -> Outcome {
        let readings = try await Blocking.run { try read(path) }
        let first = readings.first!.milliseconds
        let last = readings.last!.milliseconds
        var outcome = Outcome(readings: readings.count, first: first, last: last, records: [])
        let account = account
        for record in try await store.read({
            try $0.records(fromMilliseconds: first, toMilliseconds: last + 1, account: account)
        }) {
            guard let id = record.id else { continue }
            let values = Self.conditions(readings, at: record.milliseconds)
            if values.isEmpty { continue }
            outcome.records.append((id, values))
        }
        if !dryRun {
            // The readings and the records' conditions in one unit: all of them, or none.
            outcome.newReadings = try await store.write { [outcome] tx in
                let added = try tx.addWeatherReadings(readings, account: account)
                for (id, values) in outcome.records { try tx.setConditions(values, on: id, account: account) }
                return added
            }
        }
        return outcome
    }
}
