import GPSCore

/// A visit a source already knew: Google's semantic history (a `placeVisit`, a Timeline.json
/// `visit`), with its hours, its place's position and the name Google gave it. What it says is
/// kept: the visit counts for its hours even with no point there, and its place carries the
/// name (the user's own name wins).
public struct SaidVisit: Equatable, Sendable {
    /// ms since 1970 UTC.
    public var start: Int64
    public var end: Int64
    public var coordinate: Coordinate
    public var name: String?
    /// The source's id of the place (Google's `placeId`).
    public var placeID: String?

    public init(start: Int64, end: Int64, coordinate: Coordinate, name: String? = nil, placeID: String? = nil) {
        self.start = start
        self.end = end
        self.coordinate = coordinate
        self.name = name
        self.placeID = placeID
    }

    /// How far a found visit's centre may be from a said visit's place and still be that stay,
    /// metres.
    public static let sameStay = 250.0

    /// Adds what `said` knew to the visits and trips found in the points (both in time order,
    /// and so they stay). A said visit overlapped by a found one near its place (``sameStay``)
    /// is that visit, which keeps its times. Otherwise it is a visit for its hours at its place:
    /// a found visit elsewhere that overlaps it (the points bridged hours without a fix, as a
    /// phone asleep) is cut around it; a trip that lies at least half within said visits was a
    /// stay the points could not tell (no fix indoors) and goes.
    public static func merge(_ said: [SaidVisit], visits: inout [Visit], trips: inout [Trip]) {
        let said = said.filter { $0.end > $0.start }.sorted { $0.start < $1.start }
        guard !said.isEmpty else { return }
        func overlap(_ a: Int64, _ b: Int64, _ s: SaidVisit) -> Int64 { max(0, min(b, s.end) - max(a, s.start)) }
        var added: [SaidVisit] = []
        for s in said {
            let overlapping = visits.filter { overlap($0.start, $0.end, s) > 0 }
            if overlapping.contains(where: { Geodesy.haversineDistance($0.center, s.coordinate) <= sameStay }) {
                continue
            }
            visits = visits.flatMap { v -> [Visit] in
                guard overlap(v.start, v.end, s) > 0 else { return [v] }
                var before = v
                var after = v
                (before.end, before.ongoing) = (s.start, false)
                after.start = s.end
                return [before, after].filter { $0.end > $0.start }
            }
            visits.append(Visit(start: s.start, end: s.end, center: s.coordinate, spread: 0, fixes: 0))
            added.append(s)
        }
        trips.removeAll { t in
            let covered = added.reduce(Int64(0)) { $0 + overlap(t.start, t.end, $1) }
            return t.end > t.start && 2 * covered >= t.end - t.start
        }
        visits.sort { $0.start < $1.start }
    }

    /// The name the source gave each place (by ``Visit/place``): that of the said visit that
    /// overlaps the place's visits longest.
    public static func names(_ said: [SaidVisit], visits: [Visit]) -> [Int: String] {
        var best: [Int: (time: Int64, name: String)] = [:]
        for v in visits {
            guard let place = v.place else { continue }
            for s in said {
                guard let name = s.name, !name.isEmpty else { continue }
                let time = min(v.end, s.end) - max(v.start, s.start)
                // A visit of no length (one fix) that falls within the said one counts too.
                guard time > 0 || (v.start >= s.start && v.end <= s.end) else { continue }
                if time >= (best[place]?.time ?? -1) { best[place] = (max(time, 0), name) }
            }
        }
        return best.mapValues(\.name)
    }
}
