/// One reading of a weather station or service, or of a device's own sensor (a phone's
/// barometer), as stored: what it does not give is nil.
public struct WeatherReading: Equatable, Sendable {
    /// UTC milliseconds.
    public var milliseconds: Int64
    /// The device that measured it; nil for a station's or a service's reading (imported).
    public var device: DeviceID?
    /// Air temperature, °C.
    public var temperature: Double?
    /// Air pressure at the station, hPa.
    public var pressure: Double?
    /// Wind speed, m/s.
    public var windSpeed: Double?
    /// Where the wind comes from, degrees clockwise from north.
    public var windDirection: Double?
    /// Cloud cover, percent.
    public var cloud: Double?

    public init(
        milliseconds: Int64, temperature: Double? = nil, pressure: Double? = nil, windSpeed: Double? = nil,
        windDirection: Double? = nil, cloud: Double? = nil, device: DeviceID? = nil
    ) {
        self.milliseconds = milliseconds
        self.device = device
        self.temperature = temperature
        self.pressure = pressure
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.cloud = cloud
    }
}
