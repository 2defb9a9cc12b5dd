import Foundation

/// A source of current weather. ``WeatherContextProvider`` puts its answer in the snapshot;
/// `OpenMeteoClient` (module `HealthWeather`) is the real one.
public protocol WeatherProviding: Sendable {
    func currentWeather(at location: GeoLocation) async throws -> CurrentWeather
}

/// A WGS 84 position.
public struct GeoLocation: Hashable, Sendable, Codable {
    public let latitude: Double
    public let longitude: Double

    /// `nil` outside −90…90 / −180…180.
    public init?(latitude: Double, longitude: Double) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The weather now at one place.
public struct CurrentWeather: Hashable, Sendable, Codable {
    /// Words for ``weatherCode`` (``WMOWeatherCode``).
    public var condition: String
    public var temperatureCelsius: Double
    /// The WMO 4677 present-weather code, as Open-Meteo reports it.
    public var weatherCode: Int

    public init(condition: String, temperatureCelsius: Double, weatherCode: Int) {
        self.condition = condition
        self.temperatureCelsius = temperatureCelsius
        self.weatherCode = weatherCode
    }
}
