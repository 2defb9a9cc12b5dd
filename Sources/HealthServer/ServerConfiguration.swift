import Foundation

/// How the server runs. Defaults suit one machine on loopback.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Largest request body accepted on the JSON routes, in bytes (larger: 413).
    public var maxBodyBytes = 4 << 20
    /// Largest Health Auto Export body, in bytes (a day of minute-level data is ~1 MB).
    public var maxIngestBytes = 32 << 20
    /// Requests a minute per token (more: 429).
    public var requestsPerMinute = 1200
    /// Days a single `POST /v1/daily-metrics` may carry.
    public var maxDaysPerRequest = 1000
    /// The clock of the rate limiter (tests pass a fixed one).
    public var clock: @Sendable () -> Date = { Date() }

    public init() {}
}
