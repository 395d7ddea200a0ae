import GPSCore

#if canImport(Glibc)
    import Glibc
#endif

/// Today's UTC date from the system clock: the date of live fixes from receivers that
/// never send one (GGA-only), after a few epochs without a date sentence.
enum LiveDate {
    /// Epochs a live source waits for the receiver's own date before using the system's.
    static let epochsToWait = 5

    static func today() -> CivilDate {
        CivilDate(daysSinceEpoch: Int(time(nil)) / 86_400)
    }
}
