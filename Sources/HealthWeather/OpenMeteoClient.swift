import AsyncHTTPClient
import Foundation
import HealthContext
import HealthCore
import NIOCore

/// Current weather from the Open-Meteo forecast API (no key needed), over async-http-client.
///
/// ```swift
/// let client = OpenMeteoClient()
/// let weather = try await client.currentWeather(at: GeoLocation(latitude: 52.52, longitude: 13.41)!)
/// weather.condition           // "Partly cloudy"
/// ```
///
/// Failures are ``WeatherError``s that name what went wrong (status, timeout, which field
/// of the body) and never include the location. (URLSession on Linux was dropped: under
/// concurrent requests with timeouts its tasks hung and then crashed the process in
/// FoundationNetworking's task registry, a crash a client could trigger through
/// `GET /v1/snapshot?lat=&lon=`.)
public struct OpenMeteoClient: WeatherProviding {
    /// Settings of a client.
    public struct Configuration: Sendable {
        /// The API's base address (tests point it at a loopback server).
        public var baseURL = URL(string: "https://api.open-meteo.com")!
        /// Seconds to wait for an answer (fractions count).
        public var timeout: TimeInterval = 1.0

        public init() {}
    }

    /// The largest answer read; Open-Meteo's current weather is a few hundred bytes.
    static let maxBodyBytes = 1 << 20

    public let configuration: Configuration
    private let client: HTTPClient

    /// One HTTP client for every weather request of the process, never shut down. A
    /// refused connection is reported at once: async-http-client's default retries the
    /// connection until the deadline, which would turn "connection refused" into a timeout.
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// A client on `httpClient` (default: ``sharedHTTPClient``).
    public init(configuration: Configuration = Configuration(), httpClient: HTTPClient = OpenMeteoClient.sharedHTTPClient) {
        self.configuration = configuration
        self.client = httpClient
    }

    /// The address asked for `location`: current temperature (°C) and weather code.
    public func url(for location: GeoLocation) -> URL {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)!
        components.path = components.path.hasSuffix("/") ? components.path + "v1/forecast" : components.path + "/v1/forecast"
        components.queryItems = [
            URLQueryItem(name: "latitude", value: String(location.latitude)),
            URLQueryItem(name: "longitude", value: String(location.longitude)),
            URLQueryItem(name: "current", value: "temperature_2m,weather_code"),
            URLQueryItem(name: "temperature_unit", value: "celsius"),
        ]
        return components.url!
    }

    public func currentWeather(at location: GeoLocation) async throws -> CurrentWeather {
        var request = HTTPClientRequest(url: url(for: location).absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let deadline = TimeAmount.nanoseconds(Int64(configuration.timeout * 1e9))
        let status: Int
        let body: ByteBuffer
        do {
            // One deadline for the whole exchange, answer body included.
            (status, body) = try await Deadline.run(seconds: configuration.timeout) { [client, request] in
                let response = try await client.execute(request, timeout: deadline)
                return (Int(response.status.code), try await response.body.collect(upTo: Self.maxBodyBytes))
            }
        } catch is Deadline.Expired {
            throw WeatherError(.timedOut(configuration.timeout))
        } catch let error as HTTPClientError
            where [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error)
        {
            throw WeatherError(.timedOut(configuration.timeout))
        } catch is NIOTooManyBytesError {
            throw WeatherError(.malformed("the body is larger than \(Self.maxBodyBytes) bytes"))
        } catch {
            throw WeatherError(.unreachable(Self.reason(error)))
        }
        guard (200..<300).contains(status) else { throw WeatherError(.status(status)) }
        do {
            return try OpenMeteoForecast.currentWeather(from: Data(body.readableBytesView))
        } catch let error as OpenMeteoFormatError {
            throw WeatherError(.malformed(error.detail))
        }
    }

    /// Why the service could not be reached, in words (never the address).
    static func reason(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .remoteConnectionClosed: return "connection lost"
            case .connectTimeout: return "connection timed out"
            default: return "HTTP client error"
            }
        }
        let text = String(describing: error).lowercased()
        if text.contains("connection refused") || text.contains("econnrefused") { return "connection refused" }
        if text.contains("name") && text.contains("resol") || text.contains("lookup") {
            return "host not found; is the network up?"
        }
        if text.contains("ssl") || text.contains("tls") || text.contains("certificate") { return "TLS failed" }
        return "network error"
    }
}

/// Why the weather could not be fetched. The description never contains the location.
public struct WeatherError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case timedOut(TimeInterval)
        case unreachable(String)
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

    public var description: String {
        switch kind {
        case .timedOut(let seconds): "Open-Meteo did not answer within \(seconds) s"
        case .unreachable(let reason): "Open-Meteo could not be reached (\(reason))"
        case .notHTTP: "Open-Meteo's answer was not HTTP"
        case .status(let code): "Open-Meteo answered HTTP \(code)"
        case .malformed(let detail): "malformed Open-Meteo response: \(detail)"
        }
    }
}
