import Foundation
import GPSCore
import GPSDevices
import TrackModel

/// A gazetteer file that cannot be read.
public enum GazetteerError: ServiceFailure, Equatable {
    /// A line that is not a row of GeoNames' `geoname` table (`line` counts from 1).
    case badLine(String, line: Int, reason: String)
    /// No populated place in the file.
    case empty(String)
    /// A zip with no single `.txt` table in it.
    case noTable(String)

    public var kind: FailureKind { .badData }

    public var description: String {
        switch self {
        case .badLine(let path, let line, let reason):
            return "Line \(line) of \(path) is not a row of GeoNames' geoname table (\(reason)); give cities500.txt, "
                + "cities1000.txt or allCountries.txt from download.geonames.org/export/dump (or its .zip). "
                + "The gazetteer is unchanged."
        case .empty(let path):
            return "\(path) holds no populated place (feature class P); give cities500.txt or allCountries.txt from "
                + "download.geonames.org/export/dump. The gazetteer is unchanged."
        case .noTable(let path):
            return "\(path) holds no single .txt table; give the zip GeoNames publishes (cities500.zip) or the "
                + "unzipped .txt. The gazetteer is unchanged."
        }
    }
}

/// `trailbook geocoder import`: GeoNames' tab-separated dumps (`geoname` table, 19 columns:
/// geonameid, name, asciiname, alternatenames, latitude, longitude, feature class, feature code,
/// country code, cc2, admin1 code, admin2, admin3, admin4, population, elevation, dem, timezone,
/// modification date) into the store, populated places (feature class P) only, read as the file
/// goes, replacing the gazetteer in one unit of work.
public enum GazetteerService {
    public struct Outcome: Sendable, Equatable {
        /// Rows read, populated places stored, other rows passed over.
        public var rows: Int
        public var stored: Int
        public var passedOver: Int
    }

    public static func importGeoNames(
        _ path: String, admin1Names: String? = nil, store: any TrackStoring,
        progress: (@Sendable (_ bytes: Int, _ total: Int?) -> Void)? = nil
    ) async throws -> Outcome {
        let names = try admin1Names.map(admin1) ?? [:]
        let source = try table(path)
        // The file is read as the unit writes (a unit of its own, the gazetteer replaced whole).
        return try await store.write { tx in
            let file = try InputFile(path: source)
            var rows = 0
            var passedOver = 0
            let stored = try tx.replaceGazetteer { sink in
                var batch: [GazetteerEntry] = []
                batch.reserveCapacity(10_000)
                try forEachLine(file) { line, number in
                    rows += 1
                    guard let entry = try entry(line, number: number, path: source, admin1Names: names) else {
                        passedOver += 1
                        return
                    }
                    batch.append(entry)
                    if batch.count == 10_000 {
                        try sink(batch)
                        batch.removeAll(keepingCapacity: true)
                        progress?(file.bytesRead, file.size)
                    }
                }
                if batch.isEmpty && rows == passedOver { throw GazetteerError.empty(source) }
                try sink(batch)
            }
            return Outcome(rows: rows, stored: stored, passedOver: passedOver)
        }
    }

    /// The file to read: `path`, or the one `.txt` table of a zip (GeoNames' `cities500.zip`).
    static func table(_ path: String) throws -> String {
        guard path.lowercased().hasSuffix(".zip") else { return path }
        let archive = try InputFile.openArchive(path)
        let tables = archive.entries.map(\.name).filter {
            $0.lowercased().hasSuffix(".txt") && !$0.lowercased().hasPrefix("readme")
        }
        guard tables.count == 1 else { throw GazetteerError.noTable(path) }
        return path + "/" + tables[0]
    }

    /// `admin1CodesASCII.txt`: "CH.25<TAB>Zurich<TAB>Zurich<TAB>2657895" → ["CH.25": "Zurich"].
    static func admin1(_ path: String) throws -> [String: String] {
        var names: [String: String] = [:]
        try forEachLine(try InputFile(path: path)) { line, number in
            let fields = line.split(separator: 9, omittingEmptySubsequences: false)
            guard fields.count >= 2 else {
                throw GazetteerError.badLine(
                    path, line: number, reason: "admin1 codes have code and name, tab-separated")
            }
            names[String(decoding: fields[0], as: UTF8.self)] = String(decoding: fields[1], as: UTF8.self)
        }
        return names
    }

    /// The populated place of one row; nil for another feature class.
    static func entry(_ line: ArraySlice<UInt8>, number: Int, path: String, admin1Names: [String: String]) throws
        -> GazetteerEntry?
    {
        let f = line.split(separator: 9, omittingEmptySubsequences: false)
        func text(_ i: Int) -> String { String(decoding: f[i], as: UTF8.self) }
        func fail(_ reason: String) -> GazetteerError { .badLine(path, line: number, reason: reason) }
        guard f.count == 19 else { throw fail("\(f.count) tab-separated fields, not 19") }
        guard let id = Int64(text(0)) else { throw fail("the geonameid \"\(text(0))\" is not a number") }
        guard let lat = Double(text(4)), let lon = Double(text(5)), abs(lat) <= 90, abs(lon) <= 180 else {
            throw fail("no latitude and longitude in degrees in columns 5 and 6")
        }
        guard text(6) == "P" else { return nil }
        let country = text(8)
        let code = text(10)
        return GazetteerEntry(
            id: id, name: text(1), latitude: lat, longitude: lon, country: country,
            admin1: admin1Names[country + "." + code] ?? code, population: Int64(text(14)) ?? 0, zone: text(17))
    }

    /// Each line of `file` without its end (LF or CRLF), numbered from 1; empty lines and `#`
    /// comments are passed over.
    static func forEachLine(_ file: InputFile, _ body: (ArraySlice<UInt8>, Int) throws -> Void) throws {
        var carry: [UInt8] = []
        var number = 0
        func emit(_ line: ArraySlice<UInt8>) throws {
            number += 1
            var l = line
            if l.last == 13 { l = l.dropLast() }
            if l.isEmpty || l.first == UInt8(ascii: "#") { return }
            try body(l, number)
        }
        try file.forEachChunk { chunk in
            var start = 0
            for i in 0..<chunk.count where chunk[i] == 10 {
                if carry.isEmpty {
                    try emit(ArraySlice(chunk[start..<i]))
                } else {
                    carry.append(contentsOf: chunk[start..<i])
                    try emit(carry[...])
                    carry.removeAll(keepingCapacity: true)
                }
                start = i + 1
            }
            carry.append(contentsOf: chunk[start...])
        }
        if !carry.isEmpty { try emit(carry[...]) }
    }
}

/// Nearest-place lookups in the stored gazetteer, the cells read once each.
public struct GazetteerLookup {
    let store: any StoreReading
    private var cells: [Int64: [GazetteerEntry]] = [:]

    public init(store: any StoreReading) {
        self.store = store
    }

    /// The populated place nearest `c` within about 50 km, and how far it is (metres).
    public mutating func nearest(_ c: Coordinate) throws -> (entry: GazetteerEntry, metres: Double)? {
        for rings in [1, 2] {
            let around = GazetteerEntry.cells(aroundLatitude: c.latitude, longitude: c.longitude, rings: rings)
            let missing = around.filter { cells[$0] == nil }
            if !missing.isEmpty {
                for m in missing { cells[m] = [] }
                for e in try store.gazetteer(cells: missing) { cells[e.cell, default: []].append(e) }
            }
            let best = around.flatMap { cells[$0] ?? [] }
                .map { ($0, Geodesy.haversineDistance(c, Coordinate(latitude: $0.latitude, longitude: $0.longitude))) }
                .min { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
            // `rings` cells reach at least that many quarter degrees beyond the point's own cell
            // (east-west shrinking with the latitude): a place found within that is the nearest.
            let reach = Double(rings) * 0.25 * 111_000 * Swift.max(0.1, cos(c.latitude * .pi / 180))
            if let best, best.1 <= reach || (rings == 2 && best.1 <= 50_000) { return best }
        }
        return nil
    }
}

extension GazetteerService {
    /// "Switzerland" for "CH" (English names from the system's locale data); the code itself
    /// when it has none.
    public static func countryName(_ code: String) -> String {
        Locale(identifier: "en_US").localizedString(forRegionCode: code) ?? code
    }
}

/// The time zone of where a point is: that of the gazetteer's nearest populated place (within
/// about 50 km), when a gazetteer is loaded and gives one.
public struct PlaceZones {
    private var lookup: GazetteerLookup?

    public init(store: any StoreReading) throws {
        lookup = try store.hasGazetteer() ? GazetteerLookup(store: store) : nil
    }

    /// Whether a gazetteer is loaded (else no zone is known).
    public var isLoaded: Bool { lookup != nil }

    public mutating func zone(at c: Coordinate) throws -> TimeZone? {
        guard lookup != nil, let entry = try lookup!.nearest(c)?.entry else { return nil }
        return TimeZone(identifier: entry.zone)
    }

    /// The zone of where `ride` began (its first point, of `account`'s device of that name).
    public mutating func zone(of ride: StoredRide, account: String?, store: any StoreReading) throws -> TimeZone? {
        guard isLoaded else { return nil }
        let first = try store.nearestPoint(
            to: ride.startMilliseconds, within: 1000,
            devices: account.map { .account($0, device: ride.device) } ?? .named(ride.device))
        return try first?.coordinate.flatMap { try zone(at: $0) }
    }
}

/// The time zone a day is cut in: where the person was. A day in Tokyo is Tokyo's day, from
/// its midnight to the next, its times written +09:00.
public enum DayZone {
    /// The zone of the place of `devices`' point nearest the middle of `day` (within half a
    /// day): the middle first in `zone`, then, if that place is in another zone, in the place's
    /// own (the day's zone is the one its middle is in). With no point within half a day of the
    /// middle in `zone`, the nearest within 26 hours (a local day anywhere lies within that) is
    /// asked where it was, and its zone holds when the middle of the day there has a point.
    /// `zone` without a gazetteer, or without a point near enough.
    public static func of(_ day: CivilDate, store: any StoreReading, devices: DeviceFilter, zone: TimeZone) throws
        -> TimeZone
    {
        var zones = try PlaceZones(store: store)
        return try of(day, zones: &zones, store: store, devices: devices, zone: zone)
    }

    /// ``of(_:store:devices:zone:)`` with the gazetteer's cells already read kept in `zones`.
    public static func of(
        _ day: CivilDate, zones: inout PlaceZones, store: any StoreReading, devices: DeviceFilter, zone: TimeZone
    ) throws -> TimeZone {
        guard zones.isLoaded else { return zone }
        /// Where the person was nearest the day's middle in `z`, within `window` ms.
        func there(_ z: TimeZone, within window: Int64) throws -> TimeZone? {
            let noon = LocalDay.start(day, in: z) + 43_200_000
            guard let point = try store.nearestPoint(to: noon, within: window, devices: devices),
                let c = point.coordinate
            else { return nil }
            return try zones.zone(at: c)
        }
        let near = try there(zone, within: 43_200_000)
        guard let first = try near ?? there(zone, within: 26 * 3_600_000), first.identifier != zone.identifier else {
            return zone
        }
        guard let second = try there(first, within: 43_200_000) else { return near == nil ? zone : first }
        return second
    }

    /// Where `day` ends: where the next day begins, in its own zone (``of(_:store:devices:zone:)``).
    /// A day cut in one zone whose next is in another (a flight east) ends before its midnight.
    public static func end(of day: CivilDate, store: any StoreReading, devices: DeviceFilter, zone: TimeZone) throws
        -> Int64
    {
        let next = day.adding(days: 1)
        return LocalDay.start(next, in: try of(next, store: store, devices: devices, zone: zone))
    }

    /// `[start, end)` in ms since 1970 UTC of the local days `first` to `last` (nil: without
    /// that bound), the first day starting at its midnight where the person was and the last
    /// ending at its own (``of(_:store:devices:zone:)``), and the zone the first day is cut in.
    public static func range(
        first: CivilDate?, last: CivilDate?, store: any StoreReading, devices: DeviceFilter, zone: TimeZone
    ) throws -> (from: Int64, to: Int64, cut: TimeZone) {
        var zones = try PlaceZones(store: store)
        let start = try first.map { try of($0, zones: &zones, store: store, devices: devices, zone: zone) } ?? zone
        // A day ends where the next begins, in the next day's zone: a flight east that lands
        // after midnight where it lands leaves its arrival to that day alone, and a flight west
        // keeps the hours it gains on the day it left.
        let end =
            try last.map { try of($0.adding(days: 1), zones: &zones, store: store, devices: devices, zone: zone) }
            ?? zone
        return (
            first.map { LocalDay.start($0, in: start) } ?? .min,
            last.map { LocalDay.start($0.adding(days: 1), in: end) } ?? .max, start
        )
    }

    /// "(Europe/Zurich)", or for a day cut elsewhere "(the day in Europe/London, where you were;
    /// times in Europe/Zurich)": what follows a day's date in text.
    public static func words(cut: TimeZone, times zone: TimeZone) -> String {
        cut.identifier == zone.identifier
            ? "(\(zone.displayIdentifier))"
            : "(the day in \(cut.displayIdentifier), where you were; times in \(zone.displayIdentifier))"
    }
}
