import TrackStore

/// The pause switch, kept in the store (so it also holds for a recorder started later).
public enum PauseSwitch {
    /// Whether collection is paused at `now`, and until when (nil: until resumed).
    public static func pause(in store: TrackStore, now: Int64) throws -> (paused: Bool, until: Int64?) {
        guard let until = try store.pausedUntil() else { return (false, nil) }
        if until == 0 { return (true, nil) }
        return (now < until, until)
    }
}
