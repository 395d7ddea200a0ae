import GPSCore

/// Finds events in one device's stream of fixes: arriving at and leaving places, starting and
/// stopping, losing and regaining the fix, a phone's battery running low.
///
/// It sees every fix the receiver or phone reported (before the collection rules), and decides
/// on the fixes' own times and accuracy only, never the wall clock: `record`, `import` and
/// `serve` run the same detector, and a replayed log gives the events the live run gave. An
/// event's time is the time of the first fix that confirmed it (the first fix inside a place,
/// the first fix of a stop), so it lies before the moment it was decided. Every state starts
/// unknown: the first stop, place or motion a stream shows is taken as it is, not announced.
public struct EventDetector: Sendable {
    public let rules: EventRules
    public private(set) var places: [Place]

    private enum Motion { case unknown, moving, stopped }
    private struct Seen {
        var ms: Int64
        var point: Coordinate
        var accuracy: Double
    }
    /// Where the device stays (or may be staying): since when, and the mean of its fixes.
    private struct Stay {
        var start: Int64
        var latitudeSum = 0.0
        var longitudeSum = 0.0
        var count = 0.0
        var center: Coordinate { Coordinate(latitude: latitudeSum / count, longitude: longitudeSum / count) }

        init(start: Int64, points: [Coordinate]) {
            self.start = start
            for p in points { add(p) }
        }

        mutating func add(_ p: Coordinate) {
            latitudeSum += p.latitude
            longitudeSum += p.longitude
            count += 1
        }
    }
    private struct PlaceState {
        /// nil until the stream shows which.
        var inside: Bool?
        /// The first fix of the current run inside (past the edge, not past the hysteresis).
        var entered: Seen?
        /// The fixes of the current run outside past the hysteresis: the first, how many, the last time.
        var leaving: (first: Seen, count: Int, last: Int64)?
    }

    private var motion = Motion.unknown
    private var stay: Stay?
    /// Fixes since the last one within the stay's radius.
    private var away: [Seen] = []
    private var placeStates: [String: PlaceState] = [:]
    private var lastMs: Int64?
    private var lastPosition: Seen?
    /// The first epoch without a position after one with.
    private var noFixSince: Int64?
    private var lost = false
    private var batteryArmed = true

    public init(rules: EventRules, places: [Place]) {
        self.rules = rules
        self.places = places
    }

    /// Replaces the places watched; the state of those still there is kept.
    public mutating func setPlaces(_ new: [Place]) {
        places = new
        let names = Set(new.map(\.name))
        placeStates = placeStates.filter { names.contains($0.key) }
    }

    /// The events `fix` confirms (usually none). Fixes without a time, or earlier than the one
    /// before, are passed over.
    public mutating func observe(_ fix: Fix) -> [TrailEvent] {
        guard let t = fix.unixMilliseconds, t >= (lastMs ?? .min) else { return [] }
        lastMs = t
        var events: [TrailEvent] = []
        guard fix.hasPosition, let point = fix.coordinate, point.isPlausible else {
            if lastPosition != nil, noFixSince == nil { noFixSince = t }
            if !lost, let since = noFixSince, Double(t - since) >= rules.fixLostAfter * 1000 {
                lost = true
                events.append(
                    TrailEvent(
                        milliseconds: since, type: .fixLost, coordinate: lastPosition?.point,
                        details: ["after_s": Double(since - lastPosition!.ms) / 1000]))
            }
            return events
        }
        if lost {
            lost = false
            events.append(
                TrailEvent(
                    milliseconds: t, type: .fixRegained, coordinate: point,
                    details: ["lost_s": Double(t - (noFixSince ?? t)) / 1000]))
        }
        noFixSince = nil
        let seen = Seen(
            ms: t, point: point, accuracy: rules.accuracy(errorEstimate: fix.horizontalError, hdop: fix.hdop))
        lastPosition = seen
        events += moved(seen)
        for place in places { events += placed(seen, place) }
        return events
    }

    /// A phone's battery level (percent) at `ms`: `battery.low` when it falls below the rule.
    public mutating func observe(battery percent: Double, at ms: Int64) -> [TrailEvent] {
        guard percent.isFinite else { return [] }
        if percent >= rules.batteryLow + 5 { batteryArmed = true }
        guard batteryArmed, percent < rules.batteryLow else { return [] }
        batteryArmed = false
        return [
            TrailEvent(
                milliseconds: ms, type: .batteryLow, coordinate: lastPosition?.point, details: ["battery_pct": percent])
        ]
    }

    /// The receiver came (back): the next fixes start afresh (a stop or place is not announced
    /// again unless it changed while away: its state is kept).
    public func connected(at ms: Int64) -> TrailEvent {
        TrailEvent(milliseconds: ms, type: .deviceConnected, coordinate: lastPosition?.point)
    }

    public func disconnected(at ms: Int64) -> TrailEvent {
        TrailEvent(milliseconds: ms, type: .deviceDisconnected, coordinate: lastPosition?.point)
    }

    /// A phone that went silent (the server decides when).
    public func offline(at ms: Int64) -> TrailEvent {
        TrailEvent(milliseconds: ms, type: .deviceOffline, coordinate: lastPosition?.point)
    }

    // MARK: motion

    private mutating func moved(_ seen: Seen) -> [TrailEvent] {
        let radius = Swift.max(rules.stopRadius, 2 * seen.accuracy)
        guard let current = stay else {
            stay = Stay(start: seen.ms, points: [seen.point])
            return []
        }
        let distance = Geodesy.haversineDistance(current.center, seen.point)
        let limit = motion == .stopped ? radius + rules.margin(accuracy: seen.accuracy) : radius
        var events: [TrailEvent] = []
        if distance <= limit {
            if distance <= radius { stay!.add(seen.point) }
            away.removeAll()
            if motion != .stopped, Double(seen.ms - current.start) >= rules.stopAfter * 1000 {
                if motion == .moving {
                    events.append(
                        TrailEvent(
                            milliseconds: current.start, type: .motionStopped, coordinate: stay!.center,
                            details: ["accuracy_m": rounded(seen.accuracy)]))
                }
                motion = .stopped
            }
            return events
        }
        away.append(seen)
        guard away.count >= 2, Double(seen.ms - away[0].ms) >= rules.moveAfter * 1000 else { return [] }
        if motion == .stopped {
            events.append(
                TrailEvent(
                    milliseconds: away[0].ms, type: .motionMoving, coordinate: away[0].point,
                    details: [
                        "accuracy_m": rounded(away[0].accuracy),
                        "distance_m": rounded(Geodesy.haversineDistance(current.center, away[0].point)),
                    ]))
        }
        motion = .moving
        // A new possible stay: the latest fixes that lie together (where the device may have stopped).
        var first = away.count - 1
        while first > 0, Geodesy.haversineDistance(away[first - 1].point, seen.point) <= radius { first -= 1 }
        stay = Stay(start: away[first].ms, points: away[first...].map(\.point))
        away.removeAll()
        return events
    }

    // MARK: places

    private mutating func placed(_ seen: Seen, _ place: Place) -> [TrailEvent] {
        var state = placeStates[place.name] ?? PlaceState()
        defer { placeStates[place.name] = state }
        let excess = place.excess(seen.point)
        let margin = rules.margin(accuracy: seen.accuracy)
        var events: [TrailEvent] = []
        if excess <= 0, state.entered == nil { state.entered = seen }
        if excess <= margin {
            state.leaving = nil
        } else {
            state.entered = nil
            if let leaving = state.leaving {
                state.leaving = (leaving.first, leaving.count + 1, seen.ms)
            } else {
                state.leaving = (seen, 1, seen.ms)
            }
            if let leaving = state.leaving, leaving.count >= 2,
                Double(leaving.last - leaving.first.ms) >= rules.departAfter * 1000, state.inside != false
            {
                if state.inside == true {
                    events.append(
                        TrailEvent(
                            milliseconds: leaving.first.ms, type: .placeDepart, place: place.name,
                            coordinate: leaving.first.point,
                            details: [
                                "accuracy_m": rounded(leaving.first.accuracy),
                                "distance_m": rounded(place.excess(leaving.first.point)),
                            ]))
                }
                state.inside = false
            }
        }
        // A stream that starts inside a place starts there, once two fixes in a row lie inside
        // with their accuracy (no arrival is announced; leaving it departs).
        if state.inside == nil, let entered = state.entered, entered.ms < seen.ms,
            place.excess(entered.point) + entered.accuracy <= 0, excess + seen.accuracy <= 0
        {
            state.inside = true
        }
        if state.inside != true, let entered = state.entered {
            let stoppedInside = motion == .stopped && stay.map { place.excess($0.center) <= 0 } == true
            if stoppedInside || Double(seen.ms - entered.ms) >= rules.arriveAfter * 1000 {
                if state.inside == false {
                    events.append(
                        TrailEvent(
                            milliseconds: entered.ms, type: .placeArrive, place: place.name, coordinate: entered.point,
                            details: [
                                "accuracy_m": rounded(entered.accuracy),
                                "distance_m": rounded(Geodesy.haversineDistance(place.center, entered.point)),
                            ]))
                }
                state.inside = true
            }
        }
        return events
    }

    private func rounded(_ x: Double) -> Double { (x * 10).rounded() / 10 }
}
