import Foundation
import HealthContext
import HealthWeather
import Testing

/// The Open-Meteo client against a loopback HTTP server: the recorded answer and each way
/// the service can fail.
@Suite struct OpenMeteoClientTests {
    /// The deadline is generous (300 s) where the test is about the answer, not the time: in
    /// the whole suite, CPU-heavy tests (and the servers' day services) can hold both threads
    /// of the cooperative pool for tens of seconds, and the deadline's timer runs on Dispatch,
    /// so a 30 s deadline expired before the stub's answer was read (CI on 8c4f094).
    static func client(_ server: LoopbackHTTPServer, timeout: Double = 300) -> OpenMeteoClient {
        var configuration = OpenMeteoClient.Configuration()
        configuration.baseURL = server.baseURL
        configuration.timeout = timeout
        return OpenMeteoClient(configuration: configuration)
    }

    static let berlin = GeoLocation(latitude: 52.52, longitude: 13.41)!

    @Test func recordedAnswer() async throws {
        let server = try LoopbackHTTPServer { _ in .init(body: ContextFixture.recordedForecast) }
        defer { server.stop() }
        let weather = try await Self.client(server).currentWeather(at: Self.berlin)
        #expect(weather == CurrentWeather(condition: "Overcast", temperatureCelsius: 6.8, weatherCode: 3))
        #expect(
            server.targets == [
                "/v1/forecast?latitude=52.52&longitude=13.41&current=temperature_2m,weather_code&temperature_unit=celsius"
            ])
    }

    @Test func serverError() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 500, body: Data("{\"error\":true,\"reason\":\"boom\"}".utf8)) }
        defer { server.stop() }
        let error = await #expect(throws: WeatherError.self) { try await Self.client(server).currentWeather(at: Self.berlin) }
        #expect(error?.statusCode == 500)
        #expect(error?.description == "Open-Meteo answered HTTP 500")
    }

    @Test func timeout() async throws {
        let server = try LoopbackHTTPServer { _ in .init(body: ContextFixture.recordedForecast, delay: 600) }
        defer { server.stop() }
        let clock = ContinuousClock()
        var caught: (any Error)?
        let elapsed = await clock.measure {
            do { _ = try await Self.client(server, timeout: 0.5).currentWeather(at: Self.berlin) } catch { caught = error }
        }
        let error = try #require(caught as? WeatherError)
        #expect(error.isTimeout)
        #expect(error.description == "Open-Meteo did not answer within 0.5 s")
        // Fractions of a second count: not truncated to 0 (URLSession on Linux does that), and
        // the answer ten minutes later is not waited for (loose bound: inside the whole suite
        // CPU-heavy tests can hold the cooperative pool for tens of seconds).
        #expect(elapsed >= .milliseconds(500) && elapsed < .seconds(300), "took \(elapsed)")
    }

    @Test func aSlowButTimelyAnswerIsTaken() async throws {
        let server = try LoopbackHTTPServer { _ in .init(body: ContextFixture.recordedForecast, delay: 0.2) }
        defer { server.stop() }
        let weather = try await Self.client(server).currentWeather(at: Self.berlin)
        #expect(weather.condition == "Overcast")
    }

    @Test(arguments: [
        ("not json at all", "malformed Open-Meteo response: the body is not JSON"),
        ("{\"current\": {\"temperature_2m\": 4.0}}", "malformed Open-Meteo response: current.weather_code is missing"),
        (
            "{\"current\": {\"temperature_2m\": \"warm\", \"weather_code\": 1}}",
            "malformed Open-Meteo response: current.temperature_2m has the wrong type"
        ),
        (
            "{\"current\": {\"temperature_2m\": 4.0, \"weather_code\": 42}}",
            "malformed Open-Meteo response: current.weather_code is not a WMO code Open-Meteo uses"
        ),
        (
            "{\"current_units\": {\"temperature_2m\": \"K\"}, \"current\": {\"temperature_2m\": 280, \"weather_code\": 1}}",
            "malformed Open-Meteo response: current_units.temperature_2m is an unknown unit"
        ),
    ])
    func malformedAnswers(_ body: String, _ message: String) async throws {
        let server = try LoopbackHTTPServer { _ in .init(body: Data(body.utf8)) }
        defer { server.stop() }
        let error = await #expect(throws: WeatherError.self) { try await Self.client(server).currentWeather(at: Self.berlin) }
        #expect(error?.isMalformed == true)
        #expect(error?.description == message)
    }

    @Test func fahrenheitIsConverted() throws {
        let body = Data(
            #"{"current_units": {"temperature_2m": "°F"}, "current": {"temperature_2m": 50, "weather_code": 61}}"#.utf8)
        #expect(
            try OpenMeteoForecast.currentWeather(from: body)
                == CurrentWeather(condition: "Slight rain", temperatureCelsius: 10, weatherCode: 61))
    }

    @Test func wmoCodesInWords() {
        #expect(WMOWeatherCode.words(for: 0) == "Clear sky")
        #expect(WMOWeatherCode.words(for: 2) == "Partly cloudy")
        #expect(WMOWeatherCode.words(for: 45) == "Fog")
        #expect(WMOWeatherCode.words(for: 75) == "Heavy snow fall")
        #expect(WMOWeatherCode.words(for: 99) == "Thunderstorm with heavy hail")
        #expect(WMOWeatherCode.words(for: 4) == nil)
        let known = (0...99).filter { WMOWeatherCode.words(for: $0) != nil }
        #expect(known.count == 28)
    }

    @Test func locationsOutsideTheGlobeAreRefused() {
        #expect(GeoLocation(latitude: 91, longitude: 0) == nil)
        #expect(GeoLocation(latitude: 0, longitude: -180.5) == nil)
        #expect(GeoLocation(latitude: -90, longitude: 180) != nil)
    }
}
