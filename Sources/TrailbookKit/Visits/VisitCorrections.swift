import Foundation
import GPSCore
import TrackModel
import Visits

/// A correction that cannot be made.
public enum VisitCorrectionError: ServiceFailure, Equatable {
    /// No trip (or visit) holds the moment; `when` is the moment as the user wrote it in local time.
    case noTrip(when: String)
    case noVisit(when: String)
    /// No place has that number or name.
    case noPlace(String)
    /// Not a mode.
    case badMode(String)
    /// The account has no correction with that id.
    case noCorrection(Int64)
    /// The store has no such account.
    case noAccount(String)
    /// Neither a visit nor a trip holds the moment.
    case nothing(when: String)
    /// An edit that cannot be: its reason as a clause ("the times end before they begin").
    case cannot(String)

    public var kind: FailureKind {
        switch self {
        case .badMode, .cannot: .badRequest
        default: .missingInput
        }
    }

    public var description: String {
        switch self {
        case .noTrip(let when):
            return "No trip was found at \(when); give a moment between two visits (the day's visits and trips show "
                + "when each ran)."
        case .noVisit(let when):
            return "No visit was found at \(when); give a moment of a stay (the day's visits and trips show when "
                + "each ran)."
        case .noPlace(let text):
            return "There is no place \(text): give a place's number or name as the places listing shows it, or the "
                + "name of one of your own places."
        case .badMode(let text):
            return "'\(text)' is not a mode; give one of "
                + TravelMode.allCases.map(\.rawValue).joined(separator: ", ") + "."
        case .noCorrection(let id):
            return "There is no correction \(id); the list of corrections shows their numbers."
        case .noAccount(let name):
            return "There is no account \(name) in the store; the list of users shows those it has."
        case .nothing(let when):
            return "Neither a visit nor a trip was found at \(when); give a moment of one (the day's visits and "
                + "trips show when each ran)."
        case .cannot(let why):
            return "That cannot be done: \(why)."
        }
    }
}

/// What the user says about the visits and trips found: a place's name, the mode of a trip,
/// the place of a visit. Each correction is kept by the moment it names and applied by every
/// later analysis (``VisitService/find(store:fromMilliseconds:toMilliseconds:devices:rules:zone:)``);
/// a newer correction of the same trip or visit replaces the older.
public struct VisitCorrections: Sendable {
    public let store: any TrackStoring
    public let devices: DeviceFilter
    public let rules: VisitRules
    public let zone: TimeZone

    public init(store: any TrackStoring, devices: DeviceFilter, rules: VisitRules, zone: TimeZone) {
        self.store = store
        self.devices = devices
        self.rules = rules
        self.zone = zone
    }

    var account: String? { devices.account }

    /// Names the place `id` ("place 7"); nil takes the name away. A place a reading showed but
    /// nothing kept yet (points no import or server round has looked at) is kept first: the
    /// places of all the account's days are, in the order they were first visited.
    public func name(place id: Int, as name: String?) async throws {
        let text = name?.trimmingCharacters(in: .whitespaces)
        let account = self.account
        func named() async throws -> Bool {
            try await store.write {
                try $0.nameFoundPlace(Int64(id), name: text?.isEmpty == false ? text : nil, account: account)
            }
        }
        if try await named() { return }
        _ = try await VisitService.find(
            store: store, fromMilliseconds: .min, toMilliseconds: .max, devices: devices, rules: rules, zone: zone,
            keep: true)
        guard try await named() else { throw VisitCorrectionError.noPlace(String(id)) }
    }

    /// The trip at `at` went by `mode`; returns it as corrected and the correction's id.
    public func mode(at: Int64, _ mode: TravelMode) async throws -> (trip: Trip, correction: Int64) {
        let found = try await findings(at: at)
        guard let trip = found.trips.first(where: { $0.start <= at && at <= $0.end }) else {
            throw VisitCorrectionError.noTrip(when: LocalTime.iso(at, zone: zone))
        }
        let id = try await replace(
            .mode, in: trip.start...trip.end,
            with: MovementCorrection(milliseconds: at, kind: .mode, value: mode.rawValue))
        var corrected = trip
        if corrected.mode != mode { corrected.modeFrom = .you }
        corrected.mode = mode
        return (corrected, id)
    }

    /// The visit at `at` was at `place`: a place's number, a found place's name, or the name of
    /// one of the user's own places (the found place in it, or a new one at its centre).
    /// Returns the visit as corrected, the place's id and the correction's id.
    public func place(at: Int64, _ place: String) async throws -> (visit: Visit, place: Int, correction: Int64) {
        let found = try await findings(at: at)
        guard let visit = found.visits.first(where: { $0.start <= at && at <= $0.end }) else {
            throw VisitCorrectionError.noVisit(when: LocalTime.iso(at, zone: zone))
        }
        let target = try await resolve(place)
        let id = try await replace(
            .place, in: visit.start...visit.end,
            with: MovementCorrection(milliseconds: at, kind: .place, value: String(target)))
        var corrected = visit
        corrected.place = target
        corrected.placeCorrected = true
        return (corrected, target, id)
    }

    /// What an edit of the timeline's shape changed: the stay (or move) it named as it was found,
    /// and the correction's id.
    public struct Edited: Sendable {
        public var kind: String
        public var start: Int64
        public var end: Int64
        public var correction: Int64
    }

    /// The stay at `at` never happened (its moves on either side are one); where no stay holds
    /// the moment, the trip there (its stays on either side, at one place, are one).
    public func remove(at: Int64) async throws -> Edited {
        let found = try await findings(at: at)
        let (kind, span): (String, ClosedRange<Int64>)
        if let v = found.visits.first(where: { $0.start <= at && at <= $0.end }) {
            (kind, span) = ("visit", v.start...v.end)
        } else if let t = found.trips.first(where: { $0.start <= at && at <= $0.end }) {
            (kind, span) = ("trip", t.start...t.end)
        } else {
            throw VisitCorrectionError.nothing(when: LocalTime.iso(at, zone: zone))
        }
        let id = try await replace(
            .remove, in: span, with: MovementCorrection(milliseconds: at, kind: .remove, value: ""))
        return Edited(kind: kind, start: span.lowerBound, end: span.upperBound, correction: id)
    }

    /// The visit at `at` ran from `from` to `to`.
    public func times(at: Int64, from: Int64, to: Int64) async throws -> Edited {
        guard from < to else { throw VisitCorrectionError.cannot("the times end before they begin") }
        let v = try await visit(at: at)
        let id = try await replace(
            .times, in: v.start...v.end,
            with: MovementCorrection(milliseconds: at, kind: .times, value: "\(from) \(to)"))
        return Edited(kind: "visit", start: from, end: to, correction: id)
    }

    /// The visits at `at` and `other` and all between them are one visit.
    public func merge(at: Int64, with other: Int64) async throws -> Edited {
        let (a, b) = (try await visit(at: at), try await visit(at: other))
        guard a.start != b.start else { throw VisitCorrectionError.cannot("both moments are in the same visit") }
        let id = try await replace(
            .merge, in: a.start...a.end, with: MovementCorrection(milliseconds: at, kind: .merge, value: String(other)))
        return Edited(kind: "visit", start: min(a.start, b.start), end: max(a.end, b.end), correction: id)
    }

    /// The visit at `at` is two, the second from `from`.
    public func split(at: Int64, from: Int64) async throws -> Edited {
        let v = try await visit(at: at)
        guard v.start < from, from < v.end else {
            throw VisitCorrectionError.cannot(
                "the visit runs from \(LocalTime.iso(v.start, zone: zone)) to \(LocalTime.iso(v.end, zone: zone)); "
                    + "split it at a moment between")
        }
        let id = try await replace(
            .split, in: v.start...v.end, with: MovementCorrection(milliseconds: at, kind: .split, value: String(from)))
        return Edited(kind: "visit", start: v.start, end: v.end, correction: id)
    }

    /// A visit the detection missed, at `center` from `from` to `to`.
    public func add(from: Int64, to: Int64, center: Coordinate) async throws -> Edited {
        guard from < to else { throw VisitCorrectionError.cannot("the times end before they begin") }
        let value = "\(to) \(center.latitude) \(center.longitude)"
        let id = try await replace(
            .add, in: from...from, with: MovementCorrection(milliseconds: from, kind: .add, value: value))
        return Edited(kind: "visit", start: from, end: to, correction: id)
    }

    /// The centre of a place as `visit place` names it (a number, a found place's name, one of
    /// the user's own places).
    public func center(of place: String) async throws -> Coordinate {
        let id = try await resolve(place)
        let account = self.account
        let known = try await store.read { try $0.foundPlaces(account: account) }
        guard let found = known.first(where: { $0.id == Int64(id) }) else { throw VisitCorrectionError.noPlace(place) }
        return found.center
    }

    /// The visit that holds `at`, or the failure that says there is none.
    func visit(at: Int64) async throws -> Visit {
        guard let v = try await findings(at: at).visits.first(where: { $0.start <= at && at <= $0.end }) else {
            throw VisitCorrectionError.noVisit(when: LocalTime.iso(at, zone: zone))
        }
        return v
    }

    /// The account's corrections, in time order.
    public func list() async throws -> [MovementCorrection] {
        let account = self.account
        return try await store.read { try $0.corrections(account: account) }
    }

    public func remove(_ id: Int64) async throws {
        let account = self.account
        guard try await store.write({ try $0.removeCorrection(id, account: account) }) else {
            throw VisitCorrectionError.noCorrection(id)
        }
    }

    /// The visits and trips around `at` (the day on either side is read, as always).
    func findings(at: Int64) async throws -> VisitFindings {
        try await VisitService.find(
            store: store, fromMilliseconds: at, toMilliseconds: at + 1, devices: devices, rules: rules, zone: zone,
            keep: true)
    }

    /// Stores `correction` in one unit of work with the others of its kind within `span` (the
    /// same trip or visit) taken away.
    func replace(_ kind: MovementCorrection.Kind, in span: ClosedRange<Int64>, with correction: MovementCorrection)
        async throws -> Int64
    {
        let account = self.account
        return try await store.write { unit in
            for old in try unit.corrections(account: account)
            where old.kind == kind && span.contains(old.milliseconds) && old.milliseconds != correction.milliseconds {
                _ = try unit.removeCorrection(old.id, account: account)
            }
            guard let id = try unit.addCorrection(correction, account: account) else {
                throw VisitCorrectionError.noAccount(account ?? "me")
            }
            return id
        }
    }

    /// A place's id from what the user wrote.
    func resolve(_ text: String) async throws -> Int {
        let account = self.account
        let (known, places) = try await store.read {
            (try $0.foundPlaces(account: account), try $0.places(account: account))
        }
        let bare = text.hasPrefix("place ") ? String(text.dropFirst(6)) : text
        if let id = Int64(bare) {
            guard known.contains(where: { $0.id == id }) else { throw VisitCorrectionError.noPlace(text) }
            return Int(id)
        }
        if let named = known.first(where: { $0.name?.caseInsensitiveCompare(text) == .orderedSame }) {
            return Int(named.id)
        }
        guard
            let own = places.first(where: {
                $0.name.caseInsensitiveCompare(text) == .orderedSame
            })
        else { throw VisitCorrectionError.noPlace(text) }
        let inside = known.filter { own.excess($0.center) <= 0 }
        if let nearest = inside.min(by: {
            Geodesy.haversineDistance($0.center, own.center) < Geodesy.haversineDistance($1.center, own.center)
        }) {
            return Int(nearest.id)
        }
        guard
            let made = try await store.write({
                try $0.rememberPlaces([own.center], milliseconds: UTCTimestamp.now(), account: account)
            }).first
        else { throw VisitCorrectionError.noPlace(text) }
        return Int(made.id)
    }
}
