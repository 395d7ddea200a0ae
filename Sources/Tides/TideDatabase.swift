import CTCD
import Foundation
import Synchronization

/// Why a station cannot be read, as one sentence.
public enum TideError: Error, Equatable, CustomStringConvertible {
    case noDatabase(String)
    case noStation(String, path: String)
    case ambiguous(String, candidates: [String])
    case current(String)
    case localMeridian(String)

    public var description: String {
        switch self {
        case .noDatabase(let path):
            "cannot read the harmonic constants at \(path): install xtide-data (apt) or give the path of a .tcd file"
        case .noStation(let name, let path):
            "no tide station \"\(name)\" in \(path): list them with trailbook tide stations --near LAT,LON"
        case .ambiguous(let name, let candidates):
            "\"\(name)\" names \(candidates.count) tide stations (\(candidates.prefix(4).joined(separator: "; "))): give the whole name or the station id"
        case .current(let name):
            "\(name) predicts currents, not water levels: choose a tide station"
        case .localMeridian(let name):
            "the constants of \(name) are given for a local time meridian, which Trailbook does not convert: choose another station"
        }
    }
}

/// A station as listed: enough to choose one.
public struct TideStationSummary: Sendable, Equatable {
    public var name: String
    public var id: String
    public var latitude: Double
    public var longitude: Double
    /// A subordinate station (predicted from a reference station's constants and its offsets).
    public var subordinate: Bool
}

/// Reads stations from XTide's harmonic constants database (.tcd) through libtcd. libtcd keeps
/// one open database in global state, so every read holds one lock.
public enum TideDatabase {
    private static let lock = Mutex(())

    /// The database Debian's xtide-data installs (the newest .tcd in /usr/share/xtide).
    public static var defaultPath: String {
        let folder = "/usr/share/xtide"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasSuffix(".tcd") }
        return files?.sorted().last.map { folder + "/" + $0 } ?? folder + "/harmonics-dwf-20191229-free.tcd"
    }

    private static func withDatabase<T>(_ path: String, _ body: (DB_HEADER_PUBLIC) throws -> T) throws -> T {
        try lock.withLock { _ in
            guard FileManager.default.isReadableFile(atPath: path) else { throw TideError.noDatabase(path) }
            let opened = path.withCString { open_tide_db(UnsafeMutablePointer(mutating: $0)) }
            guard opened != 0 else { throw TideError.noDatabase(path) }
            defer { close_tide_db() }
            return try body(get_tide_db_header())
        }
    }

    private static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func isCurrent(_ record: TIDE_RECORD) -> Bool {
        text(get_level_units(Int32(record.level_units))).hasPrefix("knots")
    }

    /// The water-level stations (currents left out), in the database's order.
    public static func stations(path: String = defaultPath) throws -> [TideStationSummary] {
        try withDatabase(path) { header in
            var list: [TideStationSummary] = []
            var record = TIDE_RECORD()
            for number in 0..<Int32(header.number_of_records) {
                guard read_tide_record(number, &record) >= 0, !isCurrent(record) else { continue }
                list.append(
                    TideStationSummary(
                        name: text(record.header.name), id: text(record.station_id),
                        latitude: record.header.latitude, longitude: record.header.longitude,
                        subordinate: record.header.record_type == UInt8(SUBORDINATE_STATION.rawValue)))
            }
            return list
        }
    }

    /// The station whose name is `name` (or holds it, when only one does), or whose id it is; a
    /// reference station before a subordinate one of the same id.
    public static func station(_ name: String, path: String = defaultPath) throws -> TideStation {
        try withDatabase(path) { header in
            var record = TIDE_RECORD()
            var exact: [Int32] = []
            var byID: [(Int32, Bool)] = []
            var partial: [(number: Int32, name: String, id: String, reference: Bool)] = []
            let wanted = name.lowercased()
            for number in 0..<Int32(header.number_of_records) {
                guard read_tide_record(number, &record) >= 0, !isCurrent(record) else { continue }
                let stationName = text(record.header.name)
                if stationName == name { exact.append(number) }
                if text(record.station_id) == name {
                    byID.append((number, record.header.record_type == UInt8(REFERENCE_STATION.rawValue)))
                }
                if stationName.lowercased().contains(wanted) {
                    partial.append(
                        (
                            number, stationName, text(record.station_id),
                            record.header.record_type == UInt8(REFERENCE_STATION.rawValue)
                        ))
                }
            }
            let chosen: Int32
            if let first = exact.first {
                chosen = first
            } else if let reference = byID.first(where: { $0.1 }) ?? byID.first {
                chosen = reference.0
            } else if partial.isEmpty {
                throw TideError.noStation(name, path: path)
            } else if Set(partial.map(\.id)).count == 1 {
                // One station, listed twice (its reference record and a subordinate copy): the reference.
                chosen = (partial.first(where: \.reference) ?? partial[0]).number
            } else {
                throw TideError.ambiguous(name, candidates: partial.map(\.name))
            }
            return try load(chosen, header: header)
        }
    }

    /// Reads station `number` (and its reference station's constants for a subordinate one).
    private static func load(_ number: Int32, header: DB_HEADER_PUBLIC) throws -> TideStation {
        var record = TIDE_RECORD()
        _ = read_tide_record(number, &record)
        let name = text(record.header.name)
        if isCurrent(record) { throw TideError.current(name) }
        var offsets: TideOffsets?
        var harmonic = record
        if record.header.record_type == UInt8(SUBORDINATE_STATION.rawValue) {
            // Times are ±HHMM; a multiplier of 0 is none.
            func seconds(_ hhmm: Int32) -> Double { Double(hhmm / 100 * 3600 + hhmm % 100 * 60) }
            offsets = TideOffsets(
                highTime: seconds(record.max_time_add), lowTime: seconds(record.min_time_add),
                highMultiply: record.max_level_multiply == 0 ? 1 : Double(record.max_level_multiply),
                lowMultiply: record.min_level_multiply == 0 ? 1 : Double(record.min_level_multiply),
                highAdd: Double(record.max_level_add), lowAdd: Double(record.min_level_add))
            _ = read_tide_record(record.header.reference_station, &harmonic)
        }
        if harmonic.zone_offset != 0 { throw TideError.localMeridian(text(harmonic.header.name)) }
        let amplitudes = withUnsafeBytes(of: harmonic.amplitude) { Array($0.bindMemory(to: Float.self)) }
        let epochs = withUnsafeBytes(of: harmonic.epoch) { Array($0.bindMemory(to: Float.self)) }
        let years = Int(header.number_of_years)
        var constituents: [Constituent] = []
        for c in 0..<Int(header.constituents) where amplitudes[c] != 0 {
            let n = Int32(c)
            var factors: [Int: Double] = [:]
            var equilibria: [Int: Double] = [:]
            if let f = get_node_factors(n), let e = get_equilibriums(n) {
                for y in 0..<years {
                    factors[Int(header.start_year) + y] = Double(f[y])
                    equilibria[Int(header.start_year) + y] = Double(e[y])
                }
            }
            constituents.append(
                Constituent(
                    name: text(get_constituent(n)), speed: get_speed(n), amplitude: Double(amplitudes[c]),
                    epoch: Double(epochs[c]), nodeFactors: factors, equilibria: equilibria))
        }
        return TideStation(
            name: name, id: text(record.station_id), latitude: record.header.latitude,
            longitude: record.header.longitude, units: text(get_level_units(Int32(harmonic.level_units))),
            datum: text(get_datum(Int32(harmonic.datum))), datumOffset: Double(harmonic.datum_offset),
            constituents: constituents, offsets: offsets, source: text(harmonic.source))
    }
}
