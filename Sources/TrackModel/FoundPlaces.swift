import Foundation
import GPSCore

/// A place the visits made, remembered the first time it was found so it keeps its id ("place
/// 7") in every listing after, and carries the name the user gave it (`trailbook visit name`).
public struct FoundPlace: Equatable, Sendable {
    public var id: Int64
    public var center: Coordinate
    /// The user's name for it; nil until they give one.
    public var name: String?
    /// Its street address from the user's own geocoder (`visits.street_names`), asked once: ""
    /// when it knew none there, nil when not asked yet.
    public var address: String?
    /// "home" or "work" as the last analysis of several days suggested it (a day alone cannot).
    public var suggestion: String?
    /// When it was first found, ms since 1970 UTC.
    public var createdMilliseconds: Int64

    public init(
        id: Int64, center: Coordinate, name: String? = nil, address: String? = nil, suggestion: String? = nil,
        createdMilliseconds: Int64
    ) {
        self.id = id
        self.center = center
        self.name = name
        self.address = address
        self.suggestion = suggestion
        self.createdMilliseconds = createdMilliseconds
    }
}

/// What the user said about a moment that the detection got wrong, kept apart from what is
/// found so that it survives every new analysis: the trip at `milliseconds` went by a mode, or
/// the visit at `milliseconds` was at a place; or an edit of the timeline's shape (the stay at
/// `milliseconds` never happened, ran at other times, is one with another or two).
public struct MovementCorrection: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// `value` is a travel mode ("train").
        case mode
        /// `value` is a found place's id.
        case place
        /// `value` is empty: the stay (where none, the move) at the moment never happened.
        case remove
        /// `value` is "FROM TO" (ms): the stay at the moment ran then.
        case times
        /// `value` is another stay's moment (ms): the two and all between them are one stay.
        case merge
        /// `value` is the moment (ms) from which the stay at the moment is a second one.
        case split
        /// The moment is a missed stay's start; `value` is "TO LAT LON" (ms, degrees).
        case add
    }

    public var id: Int64
    public var milliseconds: Int64
    public var kind: Kind
    public var value: String
    /// When it was made (ms since 1970 UTC; 0 for one not stored yet).
    public var madeMilliseconds: Int64

    public init(id: Int64 = 0, milliseconds: Int64, kind: Kind, value: String, madeMilliseconds: Int64 = 0) {
        self.id = id
        self.milliseconds = milliseconds
        self.kind = kind
        self.value = value
        self.madeMilliseconds = madeMilliseconds
    }
}

/// The places visits made and the user's corrections, per account (nil: the store's own user).
public protocol VisitReading {
    /// The account's remembered places, by id.
    func foundPlaces(account: String?) throws -> [FoundPlace]
    /// The account's corrections, in time order (then id).
    func corrections(account: String?) throws -> [MovementCorrection]
    /// The account's kept stays and moves that overlap `[from, to)` (an entry ending at `from`
    /// included), in time order.
    func keptTimeline(fromMilliseconds from: Int64, toMilliseconds to: Int64, account: String?) throws
        -> [KeptEntry]
    /// What the account's kept timeline was made with; nil when it was never made.
    func keptTimelineState(account: String?) throws -> KeptTimelineState?
}

/// What a write unit changes of found places and corrections (``VisitReading`` is what any unit reads).
public protocol VisitStoring: VisitReading {
    /// Remembers places at `centers`, first found at `milliseconds`; returns them with their new
    /// ids, in the order given (none when there is no such account).
    func rememberPlaces(_ centers: [Coordinate], milliseconds: Int64, account: String?) throws -> [FoundPlace]
    /// Names the account's place `id` (nil: takes the name away); false when it has no such place.
    func nameFoundPlace(_ id: Int64, name: String?, account: String?) throws -> Bool
    /// Keeps the street address of the account's place `id` ("" when the geocoder knew none).
    func setFoundPlaceAddress(_ id: Int64, address: String, account: String?) throws -> Bool
    /// Keeps which of the account's places are home and work (each nil: none), no other place
    /// keeping either.
    func suggestFoundPlaces(home: Int64?, work: Int64?, account: String?) throws
    /// Stores a correction, replacing one of the same kind at the same moment; returns its id
    /// (nil when there is no such account).
    func addCorrection(_ correction: MovementCorrection, account: String?) throws -> Int64?
    /// Whether the account had the correction `id`.
    func removeCorrection(_ id: Int64, account: String?) throws -> Bool
    /// Replaces the account's kept entries that start in `[from, to)` with `entries` (their ids
    /// are given by the store) and records `state`; false when there is no such account.
    func keepTimeline(
        _ entries: [KeptEntry], from: Int64, to: Int64, state: KeptTimelineState, account: String?
    ) throws -> Bool
}
