/// Unit conversions used by the decoders.
public enum Units {
    /// One knot is 1852 m per hour.
    public static let metresPerSecondPerKnot = 1852.0 / 3600.0
}
