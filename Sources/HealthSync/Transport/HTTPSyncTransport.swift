import AsyncHTTPClient
import Foundation
import HealthCore
import NIOCore
import NIOHTTP1

/// ``SyncTransport`` over HTTP(S) with async-http-client: the bearer token on every
/// request, one deadline for the whole exchange (answer body included).
public struct HTTPSyncTransport: SyncTransport {
    public let baseURL: URL
    private let token: String
    private let timeout: Double
    private let client: HTTPClient
    /// Largest answer read, in bytes.
    static let maxAnswerBytes = 4 << 20

    /// A client that fails a refused connection at once rather than retrying it until the
    /// deadline (which would turn "connection refused" into a timeout).
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public init(baseURL: URL, token: String, timeout: Double, client: HTTPClient = HTTPSyncTransport.sharedHTTPClient) {
        self.baseURL = baseURL
        self.token = token
        self.timeout = timeout
        self.client = client
    }

    public func send(_ request: SyncRequest) async throws -> SyncResponse {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        var outgoing = HTTPClientRequest(url: base + request.path)
        outgoing.method = HTTPMethod(rawValue: request.method)
        outgoing.headers.add(name: "Authorization", value: "Bearer \(token)")
        outgoing.headers.add(name: "Accept", value: "application/json")
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let deadline = TimeAmount.nanoseconds(Int64(timeout * 1e9))
        do {
            return try await Deadline.run(seconds: timeout) { [client, outgoing] in
                let response = try await client.execute(outgoing, timeout: deadline)
                let body = try await response.body.collect(upTo: Self.maxAnswerBytes)
                return SyncResponse(
                    status: Int(response.status.code),
                    headers: Dictionary(response.headers.map { ($0.name, $0.value) }) { first, _ in first },
                    body: Data(body.readableBytesView))
            }
        } catch is Deadline.Expired {
            throw SyncTransportError(.timedOut, "no answer within \(timeout) s")
        } catch let error as HTTPClientError
            where [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error)
        {
            throw SyncTransportError(.timedOut, "no answer within \(timeout) s")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Self.transportError(error)
        }
    }

    /// What went wrong on the way, in words (never the request's content).
    static func transportError(_ error: any Error) -> SyncTransportError {
        if let error = error as? HTTPClientError {
            switch error {
            case .remoteConnectionClosed: return SyncTransportError(.connectionLost, "the connection was closed mid-answer")
            case .connectTimeout: return SyncTransportError(.timedOut, "connecting timed out")
            default: return SyncTransportError(.connectionLost, "HTTP client error: \(error)")
            }
        }
        let text = String(describing: error).lowercased()
        if text.contains("connection refused") || text.contains("econnrefused") {
            return SyncTransportError(.unreachable, "connection refused")
        }
        if text.contains("reset") { return SyncTransportError(.connectionLost, "connection reset") }
        if text.contains("name") && text.contains("resol") || text.contains("lookup") {
            return SyncTransportError(.unreachable, "host not found; is the network up?")
        }
        if text.contains("ssl") || text.contains("tls") || text.contains("certificate") {
            return SyncTransportError(.unreachable, "TLS failed")
        }
        return SyncTransportError(.connectionLost, "network error")
    }
}
