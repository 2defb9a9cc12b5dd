import Foundation
import HealthContext

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Current weather from the Open-Meteo forecast API (no key needed), over `URLSession`.
///
/// ```swift
/// let client = OpenMeteoClient()
/// let weather = try await client.currentWeather(at: GeoLocation(latitude: 52.52, longitude: 13.41)!)
/// weather.condition           // "Partly cloudy"
/// ```
///
/// Failures are ``WeatherError``s that name what went wrong (status, timeout, which field
/// of the body) and never include the location.
public struct OpenMeteoClient: WeatherProviding {
    /// Settings of a client.
    public struct Configuration: Sendable {
        /// The API's base address (tests point it at a loopback server).
        public var baseURL = URL(string: "https://api.open-meteo.com")!
        /// Seconds to wait for an answer (fractions count).
        public var timeout: TimeInterval = 1.0

        public init() {}
    }

    public let configuration: Configuration
    private let session: URLSession

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        // URLSession on Linux truncates timeouts to whole seconds (0.5 s fails at once), so the
        // precise deadline is ours (``Deadline``); the session's is only a backstop.
        let backstop = configuration.timeout.rounded(.up) + 1
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = backstop
        sessionConfiguration.timeoutIntervalForResource = backstop
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: sessionConfiguration)
    }

    /// The request for `location`: current temperature (°C) and weather code.
    public func request(for location: GeoLocation) -> URLRequest {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)!
        components.path = components.path.hasSuffix("/") ? components.path + "v1/forecast" : components.path + "/v1/forecast"
        components.queryItems = [
            URLQueryItem(name: "latitude", value: String(location.latitude)),
            URLQueryItem(name: "longitude", value: String(location.longitude)),
            URLQueryItem(name: "current", value: "temperature_2m,weather_code"),
            URLQueryItem(name: "temperature_unit", value: "celsius"),
        ]
        var request = URLRequest(url: components.url!)
        request.timeoutInterval = configuration.timeout.rounded(.up) + 1
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    public func currentWeather(at location: GeoLocation) async throws -> CurrentWeather {
        let data: Data
        let response: URLResponse
        do {
            let request = request(for: location)
            (data, response) = try await Deadline.run(seconds: configuration.timeout) { [session] in
                try await session.data(for: request)
            }
        } catch is Deadline.Expired {
            throw WeatherError(.timedOut(configuration.timeout))
        } catch let error as URLError where error.code == .timedOut {
            throw WeatherError(.timedOut(configuration.timeout))
        } catch let error as URLError {
            throw WeatherError(.unreachable(error.code.rawValue))
        }
        guard let http = response as? HTTPURLResponse else { throw WeatherError(.notHTTP) }
        guard (200..<300).contains(http.statusCode) else { throw WeatherError(.status(http.statusCode)) }
        do {
            return try OpenMeteoForecast.currentWeather(from: data)
        } catch let error as OpenMeteoFormatError {
            throw WeatherError(.malformed(error.detail))
        }
    }
}

/// Why the weather could not be fetched. The description never contains the location.
public struct WeatherError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case timedOut(TimeInterval)
        case unreachable(Int)
        case notHTTP
        case status(Int)
        case malformed(String)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// The HTTP status when the service answered with an error.
    public var statusCode: Int? {
        if case .status(let code) = kind { return code }
        return nil
    }

    /// `true` when the service did not answer in time.
    public var isTimeout: Bool {
        if case .timedOut = kind { return true }
        return false
    }

    /// `true` when the answer was not the expected JSON.
    public var isMalformed: Bool {
        if case .malformed = kind { return true }
        return false
    }

    private static func explain(_ code: Int) -> String {
        switch URLError.Code(rawValue: code) {
        case .cannotFindHost, .dnsLookupFailed: "host not found; is the network up?"
        case .cannotConnectToHost: "connection refused"
        case .notConnectedToInternet: "no network connection"
        case .networkConnectionLost: "connection lost"
        case .secureConnectionFailed, .serverCertificateUntrusted: "TLS failed"
        default: "URL error \(code)"
        }
    }

    public var description: String {
        switch kind {
        case .timedOut(let seconds): "Open-Meteo did not answer within \(seconds) s"
        case .unreachable(let code): "Open-Meteo could not be reached (\(Self.explain(code)))"
        case .notHTTP: "Open-Meteo's answer was not HTTP"
        case .status(let code): "Open-Meteo answered HTTP \(code)"
        case .malformed(let detail): "malformed Open-Meteo response: \(detail)"
        }
    }
}
