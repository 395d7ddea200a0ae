import GPSCore

/// Gives every fix a UTC date: its own, carried forward across midnight, or back-filled.
///
/// - A fix whose epoch carried a date (RMC, ZDA) keeps it, and it becomes the current date;
///   so does a date given at a time of day without a fix (a ZDA between epochs).
/// - A fix without one gets the current date, plus one day when its time of day is more than
///   12 hours earlier than the previous fix's (midnight passed). gpsd keeps the old date
///   until the next RMC or ZDA; this does not.
/// - Fixes before the first date are held back; when the first date arrives they are given
///   it by counting midnights backwards, then released in order. At the end of the stream,
///   fixes still held (the log never carried a date) get `fallbackDate`, counted forwards,
///   or stay without a date.
public struct DateResolver {
    private var current: CivilDate?
    private var previousTimeOfDay: Int?
    private var held: [Fix] = []
    /// Date for a log that never carries one (`--date`): the UTC date of its first epoch.
    public var fallbackDate: CivilDate?
    /// How many fixes may wait for a date from the stream before ``fallbackDate`` is used:
    /// unlimited for files (back-fill), a few epochs for live sources (whose fallback is today's
    /// date from the system clock), so output never stalls.
    public var holdLimit: Int

    /// Half a day in milliseconds: a backwards step larger than this is a midnight.
    static let halfDay = 43_200_000

    public init(fallbackDate: CivilDate? = nil, holdLimit: Int = .max) {
        self.fallbackDate = fallbackDate
        self.holdLimit = holdLimit
    }

    /// Resolves `fix`; `emit` receives it (and any held fixes before it) once dated.
    public mutating func push(_ fix: Fix, _ emit: (Fix) throws -> Void) rethrows {
        var fix = fix
        if let own = fix.date {
            current = own
            if !held.isEmpty { try backfill(from: own, at: fix.timeOfDay, emit) }
        } else if var date = current {
            if let t = fix.timeOfDay, let p = previousTimeOfDay {
                if t < p - Self.halfDay {
                    date = date.adding(days: 1)
                } else if t > p + Self.halfDay {
                    date = date.adding(days: -1)
                }
            }
            current = date
            fix.date = date
        } else {
            held.append(fix)
            if let t = fix.timeOfDay { previousTimeOfDay = t }
            if held.count > holdLimit, let date = fallbackDate { try releaseHeld(startingOn: date, emit) }
            return
        }
        if let t = fix.timeOfDay { previousTimeOfDay = t }
        try emit(fix)
    }

    /// Takes a date the stream gave at `timeOfDay` without a fix (a ZDA at its own time): it
    /// becomes the current date, and fixes held for want of a date are dated from it.
    public mutating func observe(_ date: CivilDate, at timeOfDay: Int, _ emit: (Fix) throws -> Void) rethrows {
        if !held.isEmpty { try backfill(from: date, at: timeOfDay, emit) }
        current = date
        previousTimeOfDay = timeOfDay
    }

    /// Ends the stream, releasing held fixes with the fallback date or none.
    public mutating func finish(_ emit: (Fix) throws -> Void) rethrows {
        if let date = fallbackDate {
            try releaseHeld(startingOn: date, emit)
        } else {
            let rest = held
            held = []
            for f in rest { try emit(f) }
        }
    }

    /// Dates the held fixes forwards from `date` (the first one's date), then emits them.
    private mutating func releaseHeld(startingOn date: CivilDate, _ emit: (Fix) throws -> Void) rethrows {
        let rest = held
        held = []
        var date = date
        var previous: Int?
        for var f in rest {
            if let t = f.timeOfDay {
                if let p = previous, t < p - Self.halfDay { date = date.adding(days: 1) }
                previous = t
            }
            f.date = date
            try emit(f)
        }
        current = date
    }

    /// Dates the held fixes by walking back from the first dated epoch, then emits them.
    private mutating func backfill(from date: CivilDate, at timeOfDay: Int?, _ emit: (Fix) throws -> Void) rethrows {
        var dated = held
        held = []
        var d = date
        var later = timeOfDay
        for k in dated.indices.reversed() {
            if let t = dated[k].timeOfDay {
                if let l = later {
                    if t > l + Self.halfDay {
                        d = d.adding(days: -1)
                    } else if t < l - Self.halfDay {
                        d = d.adding(days: 1)
                    }
                }
                later = t
            }
            dated[k].date = d
        }
        for f in dated { try emit(f) }
    }
}
