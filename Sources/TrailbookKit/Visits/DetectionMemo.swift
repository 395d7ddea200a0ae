import Foundation
import Synchronization
import TrackModel
import Visits

/// Where the visit detector stood in a long range (the server's year in review), so that the
/// next look at it reads only the points since: the detector's state at the start of the
/// newest ride, with what it had found, kept while the rides before were as they are. A ride
/// before that point that changed (late points, a removal) makes the next look read it all
/// again. One per server, for all its accounts.
public final class DetectionMemo: Sendable {
    struct Key: Hashable, Sendable {
        var devices: String
        var from: Int64
        var rules: String

        init(devices: DeviceFilter, from: Int64, rules: VisitRules) {
            self.devices = "\(devices)"
            self.from = from
            self.rules = "\(rules)"
        }
    }

    /// A ride as it was read: its id and what changes when points are added or removed.
    struct RideMark: Equatable, Sendable {
        var id: Int64
        var state: ViewCache.RideState
    }

    struct Entry: Sendable {
        /// Everything before this time was read (ms).
        var at: Int64
        var detector: StayDetector
        var found: VisitService.Detected
        var points: Int
        /// The rides that began before `at`, as they were.
        var rides: [RideMark]
    }

    private let kept = Mutex<[Key: Entry]>([:])
    private let resumes = Atomic(0)

    public init() {}

    /// How many looks went on from a kept state.
    var resumed: Int { resumes.load(ordering: .relaxed) }

    static func states(_ rides: [StoredRide], before at: Int64) -> [RideMark] {
        rides.filter { $0.startMilliseconds < at }.map { RideMark(id: $0.id, state: ViewCache.RideState($0)) }
    }

    /// The kept state of `key` when a look over `[start, stop)` with `rides` can go on from it.
    func entry(_ key: Key, start: Int64, stop: Int64, rides: [StoredRide]) -> Entry? {
        guard let entry = kept.withLock({ $0[key] }), entry.at > start, entry.at <= stop,
            Self.states(rides, before: entry.at) == entry.rides
        else { return nil }
        resumes.add(1, ordering: .relaxed)
        return entry
    }

    func keep(_ key: Key, _ entry: Entry) { kept.withLock { $0[key] = entry } }
}
