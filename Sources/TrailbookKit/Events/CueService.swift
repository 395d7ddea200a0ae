import Foundation
import GPSCore
import TrackModel

/// Why a cue, task or alert request is refused.
public enum ScheduleError: ServiceFailure, Equatable {
    case emptyText
    case noPlace(String)
    case missing(ScheduleItem, Int64)
    case noAccount(String)
    case badTime(String, why: String)
    case past(String)
    case badRule(String, why: String)
    case badZone(String)
    case badQuiet(String)
    case badCooldown(Double)
    case badChannel(String)
    case noTypes

    public var kind: FailureKind {
        switch self {
        case .noPlace, .missing, .noAccount: return .missingInput
        default: return .badRequest
        }
    }

    public var description: String {
        switch self {
        case .emptyText: return "The text is empty; say what to be reminded of."
        case .noPlace(let name): return "There is no place named \(name); place list shows them, place add makes one."
        case .missing(let item, let id): return "There is no \(item.rawValue) \(id); \(item.rawValue) list shows them."
        case .noAccount(let name): return "There is no account \(name)."
        case .badTime(let text, let why): return "'\(text)' is not a time: \(why)."
        case .past(let text): return "\(text) is in the past; give a time to come, or a repeat rule."
        case .badRule(let text, let why):
            return "'\(text)' is not a repeat rule this Trailbook knows (\(why)); use daily, weekly or an RRULE "
                + "such as FREQ=WEEKLY;BYDAY=MO,WE;INTERVAL=2."
        case .badZone(let name): return "'\(name)' is not a time zone; use an IANA name such as Europe/Berlin or UTC."
        case .badQuiet(let text): return "'\(text)' is not a quiet period; give HH:MM-HH:MM, e.g. 22:00-07:00."
        case .badCooldown(let s): return "A cooldown of \(s) s will not do; give 0 or more seconds."
        case .badChannel(let why): return why
        case .noTypes: return "Name the event types the alert takes, e.g. place.arrive,place.depart."
        }
    }
}

/// Cues (`cue add|list|rm`): a text that comes back as a `cue` event when a device arrives at
/// or leaves a place.
public struct CueService: Sendable {
    public let store: any TrackStoring
    public let account: String?

    public init(store: any TrackStoring, account: String? = nil) {
        self.store = store
        self.account = account
    }

    public func add(text: String, place: String, moment: CueMoment, once: Bool) async throws -> Cue {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw ScheduleError.emptyText }
        var cue = Cue(text: text, place: place, moment: moment, once: once)
        cue.id = try await store.write { [cue, account] tx in
            guard try tx.places(account: account).contains(where: { $0.name == place }) else {
                throw ScheduleError.noPlace(place)
            }
            guard let id = try tx.addCue(cue, account: account) else { throw ScheduleError.noAccount(account ?? "me") }
            return id
        }
        return cue
    }

    public func list() async throws -> [Cue] { try await store.read { try $0.cues(account: account) } }

    public func remove(_ id: Int64) async throws {
        guard try await store.write({ try $0.removeScheduled(.cue, id: id, account: account) }) else {
            throw ScheduleError.missing(.cue, id)
        }
    }

    /// The cues `events` fire (a once cue that fired before does not), each with its event: at
    /// the place event's time and position, the cue's text, `cue` = its id.
    public static func fire(_ cues: [Cue], for events: [TrailEvent]) -> [(cue: Cue, event: TrailEvent)] {
        var fired: [(Cue, TrailEvent)] = []
        var spent = Set<Int64>()
        for e in events where e.type == .placeArrive || e.type == .placeDepart {
            for cue in cues where cue.place == e.place && cue.moment.eventType == e.type {
                if cue.once && (cue.firedMilliseconds != nil || spent.contains(cue.id)) { continue }
                spent.insert(cue.id)
                fired.append(
                    (
                        cue,
                        TrailEvent(
                            milliseconds: e.milliseconds, type: .cue, place: e.place, coordinate: e.coordinate,
                            text: cue.text, details: ["cue": Double(cue.id)])
                    ))
            }
        }
        return fired
    }
}
