import GPSCore

/// What the pipeline decided about one fix.
public enum PipelineEvent: Equatable, Sendable {
    /// Kept, in ride `ride` and segment `segment` (both counted from 1 within a run).
    case kept(Fix, ride: Int, segment: Int)
    /// Dropped, with the reason.
    case dropped(Fix, DropReason)
}
