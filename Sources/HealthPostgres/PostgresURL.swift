import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// `postgres://user:password@host:port/database?sslmode=disable|prefer|require`, read
/// into the pool's configuration and a one-off connection's. `sslmode` defaults to
/// `prefer` (TLS when the server offers it, its certificate not verified, as libpq does);
/// `require` verifies the certificate.
public struct PostgresURL: Sendable {
    public struct InvalidURL: Error, CustomStringConvertible {
        public let reason: String
        public init(reason: String) { self.reason = reason }
        public var description: String { "bad --postgres URL: \(reason)" }
    }

    /// Connection failures name the server, never the password.
    public struct Unreachable: Error, CustomStringConvertible {
        public let server: String
        public let reason: String
        public var description: String { "PostgreSQL at \(server): \(reason)" }
    }

    public enum TLSMode: Sendable { case disable, prefer, require }

    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String
    var tls: TLSMode

    public init(_ text: String) throws {
        guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? "") else {
            throw InvalidURL(reason: "expected postgres://user[:password]@host[:port]/database")
        }
        guard let host = url.host, !host.isEmpty else { throw InvalidURL(reason: "no host") }
        guard let user = url.user, !user.isEmpty else { throw InvalidURL(reason: "no user name") }
        database = String(url.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw InvalidURL(reason: "no database name after the host") }
        switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        case let mode: throw InvalidURL(reason: "sslmode must be disable, prefer or require, not '\(mode)'")
        }
        self.host = host
        port = url.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        password = url.password.map { $0.removingPercentEncoding ?? $0 }
    }

    /// `host:port/database`, for messages.
    public var server: String { "\(host):\(port)/\(database)" }

    private var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if tls == .prefer { configuration.certificateVerification = .none }
        return configuration
    }

    public func clientConfiguration() -> PostgresClient.Configuration {
        let clientTLS: PostgresClient.Configuration.TLS =
            switch tls {
            case .disable: .disable
            case .prefer: .prefer(tlsConfiguration)
            case .require: .require(tlsConfiguration)
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: clientTLS)
        configuration.options.maximumConnections = 8
        // Every transaction READ COMMITTED whatever the database's or role's default: the
        // write functions and the idempotency function rely on each of their statements
        // seeing every commit made before it (a REPEATABLE READ default ran a key twice).
        configuration.options.additionalStartupParameters.append(("default_transaction_isolation", "read committed"))
        return configuration
    }

    /// One connection, made at once: the pool retries a refused connection for a minute
    /// before it gives up, so the store first tries this to fail fast with the reason.
    public func probe(logger: Logger) async throws {
        let connectionTLS: PostgresConnection.Configuration.TLS =
            switch tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration))
            case .require: .require(try NIOSSLContext(configuration: tlsConfiguration))
            }
        let connection = try await PostgresConnection.connect(
            on: PostgresClient.defaultEventLoopGroup.next(),
            configuration: .init(
                host: host, port: port, username: user, password: password, database: database, tls: connectionTLS),
            id: 0, logger: logger
        ).get()
        try await connection.close()
    }

    /// `error` with the server named and the password left out.
    public func describe(_ error: any Error) -> any Error {
        var error = error
        if let failed = error as? PostgresTransactionError {
            error = failed.closureError ?? failed.beginError ?? failed.commitError ?? error
        }
        if let error = error as? PSQLError {
            let reason = error.serverInfo?[.message] ?? error.underlying.map { "\($0)" } ?? "\(error.code)"
            return Unreachable(server: server, reason: reason)
        }
        return Unreachable(server: server, reason: "\(error)")
    }
}
