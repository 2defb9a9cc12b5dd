import Foundation
import FuzzSupport
import HTTPTypes
import HealthServer
import HealthWire
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded

/// libFuzzer target: the server's JSON endpoints, end to end in memory (router, bearer
/// check, duplicate keys, decoding, plausible ranges, the write, the days recomputed, the
/// answer). The first byte of an input picks a route; the rest is its body (or, for a GET,
/// its query string). A sync body is the batch's plaintext, sealed with an enrolled
/// device's key, so the fuzzer reaches the items' decoding, not only the envelope's.
///
/// Finding: a crash, a hang (libFuzzer's -timeout), or any 5xx answer: a request no client
/// may send is a 4xx, never a server error.
@_cdecl("FuzzJSONEndpoints_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    let server = EndpointServer()
    return FuzzDriver.run(argc, argv) { data in server.answer(data) }
}

/// The routes an input can pick, by its first byte (modulo their count).
private let routes: [(method: HTTPRequest.Method, path: String)] = [
    (.post, "/v1/samples?tz=Europe/Paris"), (.post, "/v1/daily-metrics"), (.post, "/v1/health-auto-export"),
    (.delete, "/v1/samples"), (.post, "/v1/devices"), (.post, "/v1/sync/batches?tz=Europe/Paris"), (.post, "/mcp"),
    (.get, "/v1/daily-metrics?"), (.get, "/v1/readiness?"), (.get, "/v1/sleep?"), (.get, "/v1/snapshot?"),
    (.get, "/v1/export.csv?"), (.get, "/v1/changes?"),
]

/// One server on a SQLite store in a temporary folder, for the whole run, with one user
/// and one enrolled device. Requests go to the application's responder in memory, all on
/// one channel (HummingbirdTesting's router client makes a channel per request and keeps
/// it: ~50 KB an input, gigabytes in a 10-minute run).
///
/// libFuzzer calls its callback on the main thread, synchronously: the callback hands the
/// input to the server's task and waits on a semaphore. The main thread is libFuzzer's,
/// not one of the concurrency pool's, so the wait blocks no task.
private final class EndpointServer: @unchecked Sendable {
    // @unchecked: both properties are set once in init and only read after.
    private let inputs: AsyncStream<(Data, DispatchSemaphore)>
    private let feed: AsyncStream<(Data, DispatchSemaphore)>.Continuation

    init() {
        (inputs, feed) = AsyncStream.makeStream(of: (Data, DispatchSemaphore).self)
        let ready = DispatchSemaphore(value: 0)
        Task { [inputs] in
            do {
                try await Self.serve(inputs, ready: ready)
            } catch {
                fatalError("the fuzzed server stopped: \(error)")
            }
        }
        ready.wait()
    }

    func answer(_ data: Data) {
        let done = DispatchSemaphore(value: 0)
        feed.yield((data, done))
        done.wait()
    }

    private static func serve(_ inputs: AsyncStream<(Data, DispatchSemaphore)>, ready: DispatchSemaphore) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-endpoints-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteServerStore(path: folder.appendingPathComponent("server.sqlite").path)
        let (user, token) = try await store.addUser(name: "fuzz", scopes: [.read, .write])
        var configuration = ServerConfiguration()
        configuration.requestsPerMinute = .max
        configuration.weather.baseURL = URL(string: "http://127.0.0.1:9")!
        configuration.weather.timeout = 0.2
        var logger = Logger(label: "fuzz")
        logger.logLevel = .critical
        let server = try await Responding(
            try buildApplication(
                configuration: configuration, repositories: .init(store: store, dataFolder: folder.path), logger: logger))
        var headers: HTTPFields = [.authorization: "Bearer \(token.text)", .contentType: "application/json"]
        headers[.accept] = "application/json, text/event-stream"
        let (_, enrolment) = try await server.execute(.post, "/v1/devices", headers, Data(#"{"name": "fuzz"}"#.utf8))
        let device = try Self.device(enrolment)
        ready.signal()
        var sequence: Int64 = 0
        for await (data, done) in inputs {
            let route = routes[Int(data.first ?? 0) % routes.count]
            var body = Data(data.dropFirst())
            var uri = route.path
            var request = headers
            request[HTTPField.Name("Idempotency-Key")!] = UUID().uuidString
            request[HTTPField.Name("Confirm-Delete")!] = "yes"
            request[HTTPField.Name("MCP-Protocol-Version")!] = "2025-06-18"
            if route.method == .get {
                uri += Self.query(body)
                body = Data()
            } else if route.path.hasPrefix("/v1/sync/") {
                sequence += 1
                body = try SyncEnvelope.seal(
                    body, userID: user.id, deviceID: device.id, key: device.key, batchID: UUID(), sequence: sequence,
                    createdAt: Date()
                ).encoded()
            }
            let (status, _) = try await server.execute(route.method, uri, request, body)
            if status.code >= 500 { fatalError("\(route.method) \(route.path) answered \(status.code)") }
            done.signal()
        }
    }

    /// The fuzzer's bytes as a query string: unreserved characters and `=&:` as they are,
    /// anything else percent-encoded (a URI cannot hold them raw).
    private static func query(_ bytes: Data) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~=&:".utf8)
        return bytes.map { kept.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }

    private static func device(_ body: Data) throws -> (id: String, key: SyncKey) {
        struct Enrolled: Decodable {
            struct Device: Decodable { var id: String }
            struct Key: Decodable {
                var id: String
                var secret: Data
            }
            var device: Device
            var key: Key
        }
        let enrolled = try JSONDecoder().decode(Enrolled.self, from: body)
        return (enrolled.device.id, try SyncKey(id: enrolled.key.id, secret: enrolled.key.secret))
    }
}

/// An application's responder, answering requests in memory on one channel.
private struct Responding<App: ApplicationProtocol>: Sendable {
    let responder: App.Responder
    let channel = NIOAsyncTestingChannel()
    let logger: Logger

    init(_ app: App) async throws {
        responder = try await app.responder
        logger = app.logger
    }

    /// The answer's status and body; a handler's thrown error is a 500, as the server's.
    func execute(
        _ method: HTTPRequest.Method, _ uri: String, _ headers: HTTPFields, _ body: Data
    ) async throws -> (HTTPResponse.Status, Data) {
        var headers = headers
        headers[.contentLength] = String(body.count)
        let request = Request(
            head: .init(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
            body: RequestBody(buffer: ByteBuffer(bytes: body)))
        let context = App.Context(source: .init(channel: channel, logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            return (.internalServerError, Data())
        }
        let writer = Collecting()
        try await response.body.write(writer)
        return (response.status, writer.bytes.withLockedValue { Data(buffer: $0) })
    }

    /// Keeps the answer's bytes.
    struct Collecting: ResponseBodyWriter {
        let bytes = NIOLockedValueBox(ByteBuffer())
        func write(_ buffer: ByteBuffer) async throws {
            bytes.withLockedValue {
                var buffer = buffer; $0.writeBuffer(&buffer)
            }
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
