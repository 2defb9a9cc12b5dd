import Foundation

/// How requests reach the server: ``HTTPSyncTransport`` over HTTP(S); tests pass their own.
public protocol SyncTransport: Sendable {
    /// Sends `request` and returns the server's answer, whatever its status. Throws
    /// ``SyncTransportError`` when no answer came (refused, reset, timed out).
    func send(_ request: SyncRequest) async throws -> SyncResponse
}

/// A request to the server.
public struct SyncRequest: Sendable, Hashable {
    public var method: String
    /// The path and query, such as `/v1/sync/batches?tz=Europe/Paris`.
    public var path: String
    /// Headers besides `Authorization` (the transport adds it).
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// The server's answer.
public struct SyncResponse: Sendable, Hashable {
    public var status: Int
    /// Header names in lowercase.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { $1 }
        self.body = body
    }

    /// The problem+json `detail` (or `title`), cut to 300 characters: what the server said
    /// was wrong. The server never puts a health value there.
    public var problemDetail: String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        let detail = (object["detail"] as? String) ?? (object["title"] as? String)
        let pointer = (object["pointer"] as? String).map { " (at \($0))" } ?? ""
        return detail.map { String($0.prefix(300)) + pointer }
    }

    /// `Retry-After` in seconds (delta-seconds or an HTTP date, as of `now`), if given.
    public func retryAfter(now: Date) -> Double? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }
}

/// A request that got no answer.
public struct SyncTransportError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        case timedOut
        case unreachable
        case connectionLost
    }

    public let kind: Kind
    /// What happened, without the request's content.
    public let reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}
