import Foundation
import GPSCore

/// Reads FIT, Garmin's Flexible and Interoperable Data Transfer protocol (the activity files of
/// bike computers and watches), as a stream, from the published protocol:
///
/// - a file header of 12 or more bytes (`.FIT` at bytes 8-11, the data size at 4-7), the data
///   records, then the file's CRC-16; files chained one after another are read in turn;
/// - definition messages (little- or big-endian, developer fields declared after the fields)
///   for 16 local message types; data messages laid out by them, developer fields skipped;
///   compressed timestamp headers (a 5-bit offset on the last timestamp);
/// - `record` messages (global 20): position in semicircles, altitude or enhanced altitude,
///   speed or enhanced speed, heart rate, cadence, power, temperature, timestamp: each a point;
/// - `session` messages (18): the sport and what the device measured (distance, timer time,
///   average and maximum heart rate, cadence and power, ascent, descent), each a waypoint at
///   its start; `lap` messages (19) counted.
///
/// The file is checked as it goes: a definition whose field sizes do not fit their types, a
/// data message without a definition, a file cut short or a CRC that does not match is a
/// ``Failure``. Memory is one message (at most about 130 kB) and 16 definitions.
public final class FITReader: TrackFileReader {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public private(set) var elements = 0
    public private(set) var skipped: [String: Int] = [:]
    /// Laps and sessions read.
    public private(set) var laps = 0
    public private(set) var sessions = 0
    /// The first position of a record, for a session that gives none of its own.
    private var firstPosition: Coordinate?

    /// The FIT epoch, 1989-12-31T00:00:00Z, in Unix seconds.
    static let epoch: Int64 = 631_065_600
    /// Degrees per semicircle (2^31 semicircles are 180°).
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    private var pending: [UInt8] = []
    private var start = 0
    /// Bytes of the file before `pending[0]`, for offsets in messages.
    private var consumed = 0
    private enum Stage {
        case header
        case records(left: Int)
        case crc
    }
    private var stage = Stage.header
    private var crc: UInt16 = 0
    private var definitions = [Definition?](repeating: nil, count: 16)
    private var lastTimestamp: UInt32?
    private var startedTrack = false

    struct Field {
        var number: UInt8
        var size: Int
        var baseType: UInt8
    }

    struct Definition {
        var global: UInt16
        var bigEndian: Bool
        var fields: [Field]
        /// Bytes of the developer fields after the fields.
        var developerBytes: Int
        var size: Int { fields.reduce(0) { $0 + $1.size } + developerBytes }
    }

    public init() {}

    /// Whether `prefix` (the first bytes of a file) is a FIT file header.
    public static func looksLikeFIT(_ prefix: UnsafeRawBufferPointer) -> Bool {
        prefix.count >= 12 && prefix[0] >= 12 && prefix[8] == 0x2E && prefix[9] == 0x46 && prefix[10] == 0x49
            && prefix[11] == 0x54
    }

    public func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (TrackItem) throws -> Void) throws {
        if start > 0 && start >= pending.count / 2 {
            pending.removeFirst(start)
            consumed += start
            start = 0
        }
        pending.append(contentsOf: bytes)
        try parse(handle)
    }

    public func finish(_ handle: (TrackItem) throws -> Void) throws {
        try parse(handle)
        switch stage {
        case .header where start < pending.count:
            throw Failure(
                description:
                    "it ends at byte \(consumed + pending.count) inside a FIT file header (the file looks cut short)")
        case .header: if consumed + start == 0 { throw Failure(description: "it holds no FIT data") }
        case .records, .crc:
            throw Failure(
                description: "it ends at byte \(consumed + pending.count) inside its data (the file looks cut short)")
        }
    }

    private func skip(_ reason: String) { skipped[reason, default: 0] += 1 }

    /// The CRC-16 of the FIT protocol (polynomial 0xA001, reflected) over `bytes`, from `crc`.
    static func crc16(_ crc: UInt16, _ bytes: some Collection<UInt8>) -> UInt16 {
        var c = crc
        crcTable.withUnsafeBufferPointer { table in
            for b in bytes { c = (c >> 8) ^ table[Int(UInt8(truncatingIfNeeded: c) ^ b)] }
        }
        return c
    }

    /// The CRC of each byte value, a byte at a time instead of a bit at a time.
    static let crcTable: [UInt16] = (0..<256).map { (i: Int) -> UInt16 in
        var c = UInt16(i)
        for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xA001 : c >> 1 }
        return c
    }

    private func parse(_ handle: (TrackItem) throws -> Void) throws {
        while true {
            let available = pending.count - start
            switch stage {
            case .header:
                guard available > 0 else { return }
                let size = Int(pending[start])
                guard available >= max(size, 12) else { return }
                guard size >= 12, pending[start + 8..<start + 12].elementsEqual([0x2E, 0x46, 0x49, 0x54]) else {
                    throw Failure(description: "byte \(consumed + start) does not start a FIT file header")
                }
                let header = pending[start..<start + size]
                let dataSize =
                    Int(header[start + 4]) | Int(header[start + 5]) << 8 | Int(header[start + 6]) << 16
                    | Int(header[start + 7]) << 24
                if size >= 14 {
                    let stated = UInt16(header[start + 12]) | UInt16(header[start + 13]) << 8
                    let computed = Self.crc16(0, header.prefix(12))
                    if stated != 0 && stated != computed {
                        throw Failure(description: "its header's CRC does not match (the file is damaged)")
                    }
                }
                crc = Self.crc16(0, header)
                start += size
                definitions = [Definition?](repeating: nil, count: 16)
                stage = .records(left: dataSize)
            case .records(let left):
                if left == 0 {
                    stage = .crc
                    continue
                }
                guard let used = try message(left: left, handle) else { return }
                crc = Self.crc16(crc, pending[start..<start + used])
                start += used
                stage = .records(left: left - used)
            case .crc:
                guard available >= 2 else { return }
                let stated = UInt16(pending[start]) | UInt16(pending[start + 1]) << 8
                guard stated == crc else {
                    throw Failure(
                        description: "its CRC is \(hex(crc)) where the file says \(hex(stated)) (the file is damaged)")
                }
                start += 2
                stage = .header
            }
        }
    }

    private func hex(_ v: UInt16) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// Reads the message at `start` if it is all there: the bytes it used, or nil to wait.
    private func message(left: Int, _ handle: (TrackItem) throws -> Void) throws -> Int? {
        let available = pending.count - start
        guard available >= 1 else { return nil }
        let offset = consumed + start
        let header = pending[start]
        func need(_ n: Int) throws -> Bool {
            if n > left {
                throw Failure(
                    description: "the message at byte \(offset) runs past the end of the data the header declares")
            }
            return available >= n
        }
        if header & 0x80 != 0 {
            // A data message with a compressed timestamp.
            let local = Int(header >> 5 & 0x03)
            guard let definition = definitions[local] else {
                throw Failure(description: "the message at byte \(offset) uses local type \(local), never defined")
            }
            guard try need(1 + definition.size) else { return nil }
            let timeOffset = UInt32(header & 0x1F)
            guard let last = lastTimestamp else {
                throw Failure(
                    description: "the message at byte \(offset) has a compressed time but no time came before")
            }
            var t = (last & ~0x1F) | timeOffset
            if timeOffset < last & 0x1F { t &+= 0x20 }
            lastTimestamp = t
            try data(definition, at: start + 1, compressedTime: t, handle)
            return 1 + definition.size
        }
        let local = Int(header & 0x0F)
        if header & 0x40 != 0 {
            // A definition message.
            guard try need(6) else { return nil }
            let fieldCount = Int(pending[start + 5])
            var size = 6 + 3 * fieldCount
            let developer = header & 0x20 != 0
            if developer {
                guard try need(size + 1) else { return nil }
                size += 1 + 3 * Int(pending[start + size])
            }
            guard try need(size) else { return nil }
            let bigEndian = pending[start + 2] == 1
            let global =
                bigEndian
                ? UInt16(pending[start + 3]) << 8 | UInt16(pending[start + 4])
                : UInt16(pending[start + 3]) | UInt16(pending[start + 4]) << 8
            var fields: [Field] = []
            for i in 0..<fieldCount {
                let p = start + 6 + 3 * i
                let field = Field(number: pending[p], size: Int(pending[p + 1]), baseType: pending[p + 2])
                let unit = Self.baseSize(field.baseType)
                guard field.size > 0, field.size % unit == 0 else {
                    throw Failure(
                        description:
                            "the definition at byte \(offset) gives field \(field.number) of message \(global) "
                            + "\(field.size) bytes, which its type (\(field.baseType & 0x1F)) cannot fill: "
                            + "the definition lies about sizes")
                }
                fields.append(field)
            }
            var developerBytes = 0
            if developer {
                let count = Int(pending[start + 6 + 3 * fieldCount])
                for i in 0..<count { developerBytes += Int(pending[start + 7 + 3 * fieldCount + 3 * i + 1]) }
            }
            definitions[local] = Definition(
                global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
            return size
        }
        guard let definition = definitions[local] else {
            throw Failure(description: "the message at byte \(offset) uses local type \(local), never defined")
        }
        guard try need(1 + definition.size) else { return nil }
        try data(definition, at: start + 1, compressedTime: nil, handle)
        return 1 + definition.size
    }

    /// Bytes of one value of a base type (its low 5 bits: 0 enum ... 16 uint64z).
    static func baseSize(_ type: UInt8) -> Int {
        switch type & 0x1F {
        case 3, 4, 11: 2
        case 5, 6, 8, 12: 4
        case 9, 14, 15, 16: 8
        default: 1
        }
    }

    /// A field's value as an integer, or nil when it holds the type's invalid value (or is not a
    /// single integer).
    func integer(_ field: Field, at p: Int, bigEndian: Bool) -> Int64? {
        let unit = Self.baseSize(field.baseType)
        guard field.size == unit, unit <= 4 else { return nil }
        var raw: UInt32 = 0
        for i in 0..<unit {
            let b = UInt32(pending[p + (bigEndian ? i : unit - 1 - i)])
            raw = raw << 8 | b
        }
        switch field.baseType & 0x1F {
        case 0, 2, 13: return raw == 0xFF ? nil : Int64(raw)
        case 1: return raw == 0x7F ? nil : Int64(Int8(truncatingIfNeeded: raw))
        case 3: return raw == 0x7FFF ? nil : Int64(Int16(truncatingIfNeeded: raw))
        case 4: return raw == 0xFFFF ? nil : Int64(raw)
        case 5: return raw == 0x7FFF_FFFF ? nil : Int64(Int32(bitPattern: raw))
        case 6: return raw == 0xFFFF_FFFF ? nil : Int64(raw)
        case 10, 11, 12: return raw == 0 ? nil : Int64(raw)
        default: return nil
        }
    }

    /// The fields of `record` and `session` messages that are read, each a slot of ``Values``.
    static let read: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 18, 19, 20, 21, 22, 23, 73, 78]
    /// A field number's slot (+ 1; 0 for a field not read).
    static let slots: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for (i, n) in read.enumerated() { table[Int(n)] = UInt8(i + 1) }
        return table
    }()

    /// The values of a `record` or `session` message, in slots by field number (no allocation
    /// per message: a FIT file is mostly records).
    private struct Values {
        static let none = Int64.min
        var timestamp: Int64?
        var slots = InlineArray<24, Int64>(repeating: none)
        subscript(_ n: UInt8) -> Int64? {
            let slot = FITReader.slots[Int(n)]
            guard slot > 0 else { return nil }
            let v = slots[Int(slot) - 1]
            return v == Self.none ? nil : v
        }
    }

    private func data(
        _ d: Definition, at offset: Int, compressedTime: UInt32?, _ handle: (TrackItem) throws -> Void
    ) throws {
        var p = offset
        var v = Values()
        let wanted = d.global == 20 || d.global == 18
        for field in d.fields {
            defer { p += field.size }
            if field.number == 253, let t = integer(field, at: p, bigEndian: d.bigEndian) {
                lastTimestamp = UInt32(truncatingIfNeeded: t)
                v.timestamp = t
            } else if wanted, case let slot = Self.slots[Int(field.number)], slot > 0,
                let value = integer(field, at: p, bigEndian: d.bigEndian)
            {
                v.slots[Int(slot) - 1] = value
            }
        }
        if let compressedTime { v.timestamp = Int64(compressedTime) }
        switch d.global {
        case 20: try record(v, handle)
        case 19: laps += 1
        case 18: try session(v, handle)
        default: break
        }
    }

    private func ms(_ fitSeconds: Int64) -> Int64 { (fitSeconds + Self.epoch) * 1000 }

    private func record(_ v: Values, _ handle: (TrackItem) throws -> Void) throws {
        elements += 1
        guard let t = v.timestamp else { return skip("no time") }
        guard let lat = v[0], let lon = v[1] else { return skip("no position") }
        let latitude = Double(lat) * Self.degreesPerSemicircle
        let longitude = Double(lon) * Self.degreesPerSemicircle
        guard TrackValues.inRange(latitude, 90), TrackValues.inRange(longitude, 180) else {
            return skip("position out of range")
        }
        var fix = Fix()
        fix.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        UTCTimestamp.set(ms(t), on: &fix)
        if let a = v[78] ?? v[2] { fix.altitudeMSL = Double(a) / 5 - 500 }
        if let s = v[73] ?? v[6] { fix.speed = Double(s) / 1000 }
        fix.mode = fix.altitudeMSL == nil ? .twoD : .threeD
        fix.sensors =
            Sensors(
                heartRate: v[3].map(Int.init), cadence: v[4].map(Int.init), power: v[7].map(Int.init),
                temperature: v[13].map(Int.init)
            ).orNil
        if !startedTrack {
            startedTrack = true
            try handle(.track)
        }
        if firstPosition == nil { firstPosition = fix.coordinate }
        try handle(.point(fix))
    }

    static let sports = [
        "generic", "running", "cycling", "transition", "fitness_equipment", "swimming", "basketball", "soccer",
        "tennis", "american_football", "training", "walking", "cross_country_skiing", "alpine_skiing",
        "snowboarding", "rowing", "mountaineering", "hiking", "multisport", "paddling", "flying", "e_biking",
        "motorcycling", "boating", "driving",
    ]

    /// A session as a waypoint at its start: what the device measured, as fields.
    private func session(_ v: Values, _ handle: (TrackItem) throws -> Void) throws {
        sessions += 1
        // A session is an element of its own: a record where it began (the first record's
        // position when the session gives none), or counted as left out.
        elements += 1
        guard let t = v[2] ?? v.timestamp else { return skip("no time") }
        var fix = Fix()
        if let lat = v[3], let lon = v[4] {
            fix.coordinate = Coordinate(
                latitude: Double(lat) * Self.degreesPerSemicircle, longitude: Double(lon) * Self.degreesPerSemicircle)
        } else {
            fix.coordinate = firstPosition
        }
        guard let c = fix.coordinate else { return skip("no position") }
        guard TrackValues.inRange(c.latitude, 90), TrackValues.inRange(c.longitude, 180) else {
            return skip("position out of range")
        }
        UTCTimestamp.set(ms(t), on: &fix)
        fix.mode = .twoD
        var fields: [TrackItem.Waypoint.Field] = [.init(key: "fit", value: "session")]
        func add(_ key: String, _ value: Double?) {
            guard let value else { return }
            let text = value == value.rounded() ? String(Int64(value)) : String(value)
            fields.append(.init(key: key, value: text))
        }
        let sport = v[5].map { Int($0) < Self.sports.count ? Self.sports[Int($0)] : "sport \($0)" }
        if let sport { fields.append(.init(key: "sport", value: sport)) }
        add("distance_m", v[9].map { Double($0) / 100 })
        add("timer_s", v[8].map { Double($0) / 1000 })
        add("elapsed_s", v[7].map { Double($0) / 1000 })
        add("avg_heart_rate", v[16].map(Double.init))
        add("max_heart_rate", v[17].map(Double.init))
        add("avg_cadence", v[18].map(Double.init))
        add("max_cadence", v[19].map(Double.init))
        add("avg_power", v[20].map(Double.init))
        add("max_power", v[21].map(Double.init))
        add("ascent_m", v[22].map(Double.init))
        add("descent_m", v[23].map(Double.init))
        let what = (sport ?? "activity").replacingOccurrences(of: "_", with: " ")
        let distance = v[9].map { String(format: ", %.1f km", Double($0) / 100_000) } ?? ""
        try handle(
            .waypoint(
                .init(fix: fix, text: what.prefix(1).uppercased() + what.dropFirst() + distance, fields: fields)))
    }
}
