import Foundation

/// The part of an Open-Meteo `/v1/forecast?current=temperature_2m,weather_code` answer we
/// read, decoded and checked without any networking.
///
/// ```json
/// {"current_units": {"temperature_2m": "°C", "weather_code": "wmo code"},
///  "current": {"time": "2026-11-21T17:15", "interval": 900, "temperature_2m": 11.4, "weather_code": 2}}
/// ```
public enum OpenMeteoForecast {
    /// The current weather in `body`. Temperatures in °F are converted; a missing field, an
    /// unknown unit or an unknown weather code is an ``OpenMeteoFormatError``.
    public static func currentWeather(from body: Data) throws -> CurrentWeather {
        let decoded: Body
        do {
            decoded = try JSONDecoder().decode(Body.self, from: body)
        } catch let error as DecodingError {
            throw OpenMeteoFormatError(detail: Self.describe(error))
        }
        let unit = decoded.currentUnits?.temperature2m ?? "°C"
        let celsius: Double
        switch unit {
        case "°C": celsius = decoded.current.temperature2m
        case "°F": celsius = (decoded.current.temperature2m - 32) * 5 / 9
        default: throw OpenMeteoFormatError(detail: "current_units.temperature_2m is an unknown unit")
        }
        guard let words = WMOWeatherCode.words(for: decoded.current.weatherCode) else {
            throw OpenMeteoFormatError(detail: "current.weather_code is not a WMO code Open-Meteo uses")
        }
        return CurrentWeather(condition: words, temperatureCelsius: celsius, weatherCode: decoded.current.weatherCode)
    }

    private struct Body: Decodable {
        struct Current: Decodable {
            var temperature2m: Double
            var weatherCode: Int
            enum CodingKeys: String, CodingKey {
                case temperature2m = "temperature_2m"
                case weatherCode = "weather_code"
            }
        }
        struct Units: Decodable {
            var temperature2m: String?
            enum CodingKeys: String, CodingKey { case temperature2m = "temperature_2m" }
        }
        var current: Current
        var currentUnits: Units?
        enum CodingKeys: String, CodingKey {
            case current
            case currentUnits = "current_units"
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            return keys.isEmpty ? "the body" : keys.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context, key)) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not JSON" : "\(path(context)) is invalid"
        @unknown default: return "the body could not be decoded"
        }
    }
}

/// An Open-Meteo answer that is not the expected JSON. Says which field, never a value.
public struct OpenMeteoFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public let detail: String

    public var description: String { "malformed Open-Meteo response: \(detail)" }
}
