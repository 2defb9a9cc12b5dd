import Foundation
import HealthWeather
import HummingbirdTLS
import NIOSSL

/// How the server runs. Defaults suit one machine on loopback.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Largest request body accepted on the JSON routes, in bytes (larger: 413).
    public var maxBodyBytes = Self.defaultMaxBodyBytes
    /// ``maxBodyBytes`` unless configured: 4 MiB.
    public static let defaultMaxBodyBytes = 4 << 20
    /// Largest Health Auto Export body, in bytes (a day of minute-level data is ~1 MB).
    public var maxIngestBytes = 32 << 20
    /// Requests a minute per token (more: 429).
    public var requestsPerMinute = 1200
    /// Wrong tokens a minute from one address, at `/login` and on `/v1` and `/mcp` together
    /// (more: 429 until the minute ends).
    public var failedSignInsPerMinute = 30
    /// Largest export accepted by `POST /v1/imports`, in bytes (larger: 413).
    public var maxUploadBytes: Int64 = 4 << 30
    /// An upload's entries may inflate to at most this many times its size, all together
    /// (more: the import fails as a zip bomb). Real exports inflate 15–25 times (an
    /// iPhone's 200 MB export.zip to some 4 GB); a zip bomb, hundreds or thousands of times.
    public var maxInflationRatio: Int64 = 50
    /// Most bytes any upload may inflate to, whatever its size (16 GiB).
    public var maxInflatedBytes: Int64 = 16 << 30
    /// Imports queued or running per user (one more upload: 429).
    public var maxImportsInFlightPerUser = 2
    /// Imports running at once, each of another user (a user's own run one after another).
    public var importConcurrency = 2
    /// At a graceful shutdown, how long the imports under way may take to end, in seconds;
    /// past it they are left to the process's end (each is one transaction: the job is
    /// failed at the next start, or, on PostgreSQL, claimed again by another server).
    public var importShutdownGrace: TimeInterval = 30
    /// HTTPS when set (`--tls-cert`, `--tls-key`); plain HTTP otherwise.
    public var tls: TLSConfiguration?
    /// The origin browsers and clients reach the server at, when that is not this server's
    /// own address: behind a TLS-terminating proxy, `https://health.example.com`
    /// (`--public-url`; ``PublicURL/parse(_:)`` checks one). An `https` one makes the
    /// dashboard's cookies `Secure` and `__Host-` and sends HSTS, as ``tls`` does; when set,
    /// a form's `Origin` must be this one.
    public var publicURL: URL?
    /// Days a single `POST /v1/daily-metrics` may carry.
    public var maxDaysPerRequest = 1000
    /// The weather service of `GET /v1/snapshot` (asked only when a request gives lat and lon).
    public var weather = OpenMeteoClient.Configuration()
    /// The deadline, in seconds, of each store-backed part of `GET /v1/snapshot` (a part
    /// past it is left empty with the reason; the weather has its own).
    public var snapshotProviderTimeout = 1.5
    /// Seconds a connection may send nothing before it is closed: while its request's
    /// headers or body are still to come (a client that stalls holds no connection, file
    /// descriptor or import slot for long), or between requests. Not while a response is
    /// written: a slow download is the client's to take.
    public var idleTimeout: TimeInterval = 30
    /// The least a request body must average, in bytes a second, once ``idleTimeout`` has
    /// passed since its request began (slower: 408, the connection closed).
    public var minimumBodyRate: Double = 1024
    /// Most connections open at once (`nil`: half the process's file descriptors, at most
    /// 4,096); one more is closed as soon as it is accepted, so a flood of connections
    /// never takes the descriptors the stores and uploads need.
    public var maxConnections: Int?
    /// Largest sealed sync batch (`POST /v1/sync/batches`), in bytes (larger: 413).
    public var maxEnvelopeBytes = 16 << 20
    /// Largest sync batch once decrypted and inflated, in bytes (larger: 422): 16 MiB, some
    /// 800 bytes an item at ``maxBatchItems`` (a client's batches are 2,000 items at most).
    public var maxBatchPlaintextBytes = 16 << 20
    /// Most items one sync batch may carry.
    public var maxBatchItems = 20_000
    /// How long a device's previous key is accepted after a rotation, in seconds (7 days).
    public var keyGracePeriod: TimeInterval = 7 * 86400
    /// How long a dashboard sign-in lasts, in seconds (12 hours).
    public var sessionLifetime: TimeInterval = 12 * 3600
    /// The OAuth authorization server of remote MCP clients (docs/oauth.md).
    public var oauth = OAuthSettings()
    /// After the person declines on the consent page (or answers "Not now"), the dashboard
    /// does not ask again for this long, in seconds (7 days).
    public var consentRepromptInterval: TimeInterval = 7 * 86400
    /// The clock of the rate limiter, of devices, key rotation, sessions and consent (tests pass a fixed one).
    public var clock: @Sendable () -> Date = { Date() }

    public init() {}

    /// True when clients reach the server over HTTPS: its own TLS, or an `https` ``publicURL``
    /// (a proxy in front terminates TLS). Then cookies are `Secure` and `__Host-` and every
    /// answer carries `Strict-Transport-Security`.
    public var servesHTTPS: Bool { tls != nil || publicURL?.scheme?.lowercased() == "https" }

    /// The origin of ``publicURL`` as a browser sends it in `Origin`: `scheme://host`, with
    /// `:port` only when it is not the scheme's default.
    public var publicOrigin: String? { publicURL.flatMap(PublicURL.origin(of:)) }
}

/// `--public-url`: the origin a proxy in front of the server is reached at.
public enum PublicURL {
    /// `text` as a public URL: `http` or `https`, a host, an optional port, and nothing else
    /// (no path but `/`, no query, fragment or user); throws ``Invalid`` otherwise.
    public static func parse(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw Invalid(text: text, reason: "it is not an absolute URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw Invalid(text: text, reason: "its scheme is '\(scheme)', not https (or http)")
        }
        guard let host = components.host, !host.isEmpty else { throw Invalid(text: text, reason: "it names no host") }
        guard components.user == nil, components.password == nil else {
            throw Invalid(text: text, reason: "it holds a user name or password")
        }
        guard components.path.isEmpty || components.path == "/" else {
            throw Invalid(text: text, reason: "it has a path ('\(components.path)'); the server is served at the root")
        }
        guard components.query == nil, components.fragment == nil else {
            throw Invalid(text: text, reason: "it has a query or a fragment")
        }
        guard let url = components.url, origin(of: url) != nil else {
            throw Invalid(text: text, reason: "it is not a valid URL")
        }
        return url
    }

    /// `scheme://host[:port]` of an http(s) URL (lower case; the port only when it is not
    /// 80 for http, 443 for https); `nil` for any other URL.
    public static func origin(of url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        // An IPv6 literal is bracketed in an origin, whether or not Foundation kept the brackets.
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { number -> String? in number == defaultPort ? nil : ":\(number)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String {
            "--public-url must be the origin clients reach the server at, https://host[:port] (or http://) with no "
                + "path or query, such as https://health.example.com; '\(text)' is not: \(reason)"
        }
    }
}

/// Loading `--tls-cert` and `--tls-key`.
public enum ServerTLS {
    /// A server configuration from a PEM certificate chain and its PEM private key, with
    /// errors that name the file.
    public static func configuration(certificate: String, key: String) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
        } catch {
            throw TLSFileError(path: certificate, reason: "not a readable PEM certificate (\(error))")
        }
        guard !chain.isEmpty else { throw TLSFileError(path: certificate, reason: "holds no certificate") }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            throw TLSFileError(path: key, reason: "not a readable PEM private key (\(error))")
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw TLSFileError(path: key, reason: "does not make a TLS context with \(certificate) (\(error))")
        }
        return configuration
    }

    /// HTTPS was asked for and cannot be set up: the server does not start.
    public struct TLSSetupError: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "cannot serve HTTPS, so the server does not start: \(reason)" }
    }

    public struct TLSFileError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }
}

/// How the OAuth authorization server hands out codes and tokens (docs/oauth.md).
public struct OAuthSettings: Sendable {
    /// How long an access token lives, in seconds (1 hour).
    public var accessTokenLifetime: TimeInterval = 3600
    /// How long a refresh token lives unused, in seconds (30 days); each use gives a new one.
    public var refreshTokenLifetime: TimeInterval = 30 * 86400
    /// How long an authorization code may wait for its redemption, in seconds (5 minutes).
    public var codeLifetime: TimeInterval = 300
    /// Most registered clients kept (a client never used is forgotten after a day).
    public var maxClients = 10_000
    /// Registrations a minute from one address.
    public var registrationsPerMinute = 5
    /// Registrations a minute from all addresses together: 6 a minute fills at most 8,640
    /// clients a day, fewer than ``maxClients``, while unused ones are forgotten after a day.
    public var registrationsPerMinuteInAll = 6

    public init() {}
}
