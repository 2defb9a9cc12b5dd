import Foundation

/// The current weather at a location, from any ``WeatherProviding`` client.
public struct WeatherContextProvider: ContextProvider {
    public let client: any WeatherProviding
    /// Where the user is; without it the weather fields stay empty, with a reason.
    public let location: GeoLocation?

    public init(client: any WeatherProviding, location: GeoLocation?) {
        self.client = client
        self.location = location
    }

    public var name: String { "weather" }
    public var fields: [ContextField] { [.currentWeatherCondition, .currentTemperatureCelsius] }

    public func provide(for request: ContextRequest) async throws -> ContextContribution {
        var result = ContextContribution()
        guard let location else {
            for field in fields { result.reasons[field] = "no location given (latitude and longitude)" }
            return result
        }
        let weather = try await client.currentWeather(at: location)
        result.values.currentWeatherCondition = weather.condition
        result.values.currentTemperatureCelsius = weather.temperatureCelsius
        return result
    }
}
