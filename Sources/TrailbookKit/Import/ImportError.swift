/// Why a file cannot be imported. Nothing of such a file is stored.
public enum ImportError: ServiceFailure, Equatable {
    /// Not a format Trailbook imports; `found` is a clause ("it is a JPEG image").
    case nothingToImport(String, found: String)
    /// A file recognised as something other than a track (``FileKind/notATrack(what:give:)``).
    case notATrack(String, what: String, give: String)
    /// A GPX or JSON track file that cannot be read; `reason` names the line where there is one.
    case broken(String, reason: String, format: String)
    case tooLarge(String)
    /// The temporary file that sorts a file far out of time order cannot be written or read.
    case cannotSort(String, what: String, folder: String, reason: String)

    public var kind: FailureKind {
        if case .cannotSort = self { return .cannotWrite }
        return .badData
    }

    public var description: String {
        switch self {
        case .nothingToImport(let path, let found):
            return "Nothing to import from \(path): \(found); give an NMEA 0183 log ($GPGGA/$GPRMC lines, "
                + "plain or .gz), a GPX, FIT, TCX, KML/KMZ, GeoJSON or CSV track, a JSON track, an OwnTracks .rec file or Google "
                + "location history (a Takeout folder or zip, Records.json, Timeline.json, location-history.json)."
        case .notATrack(let path, let what, let give):
            return "Nothing to import from \(path): it is \(what); give \(give)."
        case .broken(let path, let reason, let format):
            return "Cannot import \(path): \(reason); nothing of it was stored. Fix or re-export the \(format)."
        case .tooLarge(let path): return "\(path) is larger than 1 GB of JSON; split it."
        case .cannotSort(let path, let what, let folder, let reason):
            return "Cannot import \(path): its points are far out of time order and are sorted through a temporary "
                + "file, which could not be \(what) in \(folder) (\(reason)); nothing of it was stored. Free some room "
                + "there, or set TMPDIR to a folder with room."
        }
    }
}
