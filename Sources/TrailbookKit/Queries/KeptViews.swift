import Foundation
import GPSCore
import Synchronization
import TrackModel
import Visits

/// What a server keeps of its heaviest views for all its accounts: the overlay's rides
/// (``OverlayShapes``) and the heat map's counts (``HeatCells``), in memory and, with a
/// ``ViewCache``, in a file that outlives the server; where the visit detector stood in each
/// year looked at (``DetectionMemo``), in memory.
public struct KeptViews: Sendable {
    public let shapes: OverlayShapes
    public let heat: HeatCells
    public let years = DetectionMemo()
    public let cache: ViewCache?
    /// The newest point (ms) of each account whose places were kept last.
    let kept = LatestKept()
    /// The state of each account's rides (``ridesState(_:)``) when its days' figures were last
    /// filled: a round where it is the same looks at none of them (a view still checks the
    /// day's fingerprint).
    let daysFilled = LatestKept()

    /// `cache`: where the views outlive the server (nil: in memory only).
    public init(cache: ViewCache? = nil) {
        self.cache = cache
        shapes = OverlayShapes(cache: cache)
        heat = HeatCells(cache: cache)
    }

    /// Files in the cache what is not there yet: every account's heat map counts and overlay
    /// parts (its days in its own zone, else `zone`); takes away what is kept of rides no
    /// longer stored; reads the account's year so far with the visit `rules` into ``years``
    /// (only the points since the last time, when its earlier rides are as they were). Reads
    /// each point of what it works out once; then the figures of each day the overlay counts
    /// (``OverlayShapes/fillDays(account:zone:store:rules:stop:)``, a week at a time from the
    /// newest). Stops between rides (and weeks) when `stop` says so. Returns the rides counted,
    /// the parts and the days worked out.
    @discardableResult
    public func fill(
        store: any TrackStoring, zone: TimeZone, rules: VisitRules = VisitRules(), stop: () -> Bool = { false }
    ) async throws -> (rides: Int, parts: Int, days: Int) {
        guard let cache else { return (0, 0, 0) }
        // Each account's rides and chosen zone, on one snapshot.
        let (accounts, ridesOf, zones) = try await store.read { tx in
            let accounts = try tx.accounts()
            var (rides, zones) = ([String: [StoredRide]](), [String: String]())
            for account in accounts {
                rides[account.name] = try tx.rides(
                    fromMilliseconds: .min, toMilliseconds: .max, devices: DeviceFilter(account: account.name))
                zones[account.name] = try tx.preferences(account: account.name).timeZone
            }
            return (accounts, rides, zones)
        }
        var stored = Set<Int64>()
        var newest: [String: Int64] = [:]
        var states: [String: Int64] = [:]
        for account in accounts {
            let rides = ridesOf[account.name] ?? []
            stored.formUnion(rides.map(\.id))
            newest[account.name] = rides.map(\.endMilliseconds).max()
            states[account.name] = Self.ridesState(rides)
        }
        try await cache.forget(allBut: stored)
        var done = (rides: 0, parts: 0, days: 0)
        for account in accounts where account.hasPassword {
            guard !stop() else { break }
            let chosen = zones[account.name].flatMap(TimeZone.init(identifier:))
            done.rides += try await heat.fill(account: account.name, store: store, stop: stop)
            done.parts += try await shapes.fill(
                account: account.name, zone: chosen ?? zone, store: store, stop: stop)
            // The year in review of this year, as `/year` reads it.
            guard !stop() else { break }
            let local = chosen ?? zone
            let year = LocalTime.today(in: local).year
            try await VisitService.prime(
                store: store, fromMilliseconds: LocalDay.start(CivilDate(unchecked: year, 1, 1), in: local),
                toMilliseconds: LocalDay.start(CivilDate(unchecked: year + 1, 1, 1), in: local),
                devices: DeviceFilter(account: account.name), rules: rules, memo: years)
            // The stays and moves and the places the account's newest points make are kept here
            // (the phones that post them write points only), so that reading the day never
            // writes: the two days before its newest point, once per point newer than the round
            // before saw.
            if let end = newest[account.name], kept[account.name] != end {
                // The kept timeline of the points since the round before (every entry the first
                // time, or after a new detection version or other rules: docs/TIMELINE.md).
                try await TimelineKeeper.redo(
                    store: store, account: account.name, from: kept[account.name] ?? end - 2 * 86_400_000, to: end + 1,
                    rules: rules)
                _ = try await VisitService.find(
                    store: store, fromMilliseconds: end - 2 * 86_400_000, toMilliseconds: end + 1,
                    devices: DeviceFilter(account: account.name), rules: rules, zone: local, keep: true)
                kept[account.name] = end
            }
            // The days' figures last: the detector reads otherwise once places are remembered.
            // None when the kept timeline answers (the overlay counts its moves then).
            guard !stop() else { break }
            let answers = try await store.read {
                try TimelineKeeper.answers($0, to: .max, devices: DeviceFilter(account: account.name), rules: rules)
            }
            // (Its zone too: the days are cut at its midnights.)
            if !answers, let rides = states[account.name], case let state = rides ^ Int64(local.identifier.hashValue),
                daysFilled[account.name] != state
            {
                done.days += try await shapes.fillDays(
                    account: account.name, zone: local, store: store, rules: rules, stop: stop)
                if !stop() { daysFilled[account.name] = state }
            }
        }
        return done
    }
}

extension KeptViews {
    /// A number that changes when any of `rides` gains or loses points, starts or ends
    /// elsewhere, or a ride comes or goes.
    static func ridesState(_ rides: [StoredRide]) -> Int64 {
        rides.reduce(Int64(rides.count)) { state, r in
            (state &* 1_000_003) ^ r.id ^ (Int64(r.pointCount) &* 31) ^ (r.startMilliseconds &* 7) ^ r.endMilliseconds
        }
    }
}

/// The newest point of each account whose found places a round kept.
final class LatestKept: Sendable {
    private let ends = Mutex<[String: Int64]>([:])

    subscript(account: String) -> Int64? {
        get { ends.withLock { $0[account] } }
        set { ends.withLock { $0[account] = newValue } }
    }
}
