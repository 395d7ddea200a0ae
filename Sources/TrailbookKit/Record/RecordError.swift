import GPSCore

/// Why recording ended with points not stored.
public enum RecordError: ServiceFailure, Equatable {
    /// Another process kept the store busy past the wait at the stop.
    case storeStayedBusy(String, seconds: Int, points: Int)

    public var kind: FailureKind { .cannotWrite }

    public var description: String {
        switch self {
        case .storeStayedBusy(let path, let seconds, let points):
            return "The store \(path) stayed busy (another process was writing to it) for \(seconds) s after the "
                + "stop; \(counted(points, "point")) " + (points == 1 ? "was" : "were") + " not stored."
        }
    }
}
