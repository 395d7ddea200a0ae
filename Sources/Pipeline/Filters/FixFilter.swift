import GPSCore

/// One stateless stage of the pipeline: keeps a fix (nil) or names why it drops it.
public protocol FixFilter: Sendable {
    /// The reason to drop `fix`, given the latest fix the pipeline has accepted (kept, or held
    /// as a possible jump), or nil to keep it.
    func reasonToDrop(_ fix: Fix, after latest: Fix?) -> DropReason?
}
