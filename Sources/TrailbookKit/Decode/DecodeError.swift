/// Why a log could not be decoded.
public enum DecodeError: ServiceFailure, Equatable {
    /// Nothing in the input (named as the user knows it) is NMEA; `found` says what was there.
    case noNMEA(String, found: String)

    public var kind: FailureKind { .badData }

    public var description: String {
        switch self {
        case .noNMEA(let name, let found):
            "No NMEA sentences found in \(name) (\(found)); give a log of NMEA 0183 text such as $GPGGA/$GPRMC lines."
        }
    }
}
