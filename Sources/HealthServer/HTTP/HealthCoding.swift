import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// The server's JSON answers, as the request context's response encoder: a handler returns
/// a value (``ResponseEncodable``) and this writes it with sorted keys, ISO 8601 instants
/// and unescaped slashes, as `Content-Type: application/json` (no charset: JSON is UTF-8 by
/// definition, RFC 8259 §8.1).
public struct HealthResponseEncoder: ResponseEncoder {
    public init() {}

    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        Self.response(try Self.data(value))
    }

    /// An answer of JSON bytes already encoded.
    static func response(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields: HTTPFields = [.contentType: "application/json"]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The bytes of `value` as every answer encodes it (an idempotent request remembers them).
    static func data(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}

/// The request context's decoder of JSON bodies: `Content-Type: application/json` (else a
/// 415), at most the context's `maxUploadSize` bytes (else a 413 that says the limit), no
/// key twice in one object (else a 400 naming it: parsers disagree on which wins), then
/// decoded (a field that does not decode is a 400 naming it, by ``ProblemMiddleware``).
///
/// Call it as `context.requestDecoder.decode(T.self, from: request, context: context)`:
/// Hummingbird's `request.decode(as:context:)` turns a `DecodingError` into its own 400
/// without the field's pointer.
public struct HealthRequestDecoder: RequestDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try JSONDecoder().decode(type, from: try await Self.body(of: request, limit: context.maxUploadSize))
    }

    /// The checked bytes of a JSON body, for a type decoded with a wire decoder of its own or
    /// a body whose bytes matter (an idempotent request hashes them).
    static func body(of request: Request, limit: Int) async throws -> Data {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/json") else {
            throw Problem(.unsupportedMediaType, "Unsupported media type", detail: "send Content-Type: application/json")
        }
        let data: Data
        do {
            data = Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw Problem(
                .contentTooLarge, "Body too large",
                detail: "the body is larger than the \(limit) bytes this server accepts; send smaller batches")
        }
        try await refuseUnsafeJSON(data)
        return data
    }

    /// ``refuseUnsafeJSON(in:)`` of a body, a large one off the cooperative pool, as
    /// bodies are decoded (``offload(_:)``): a scan of megabytes must not stall `/healthz`.
    static func refuseUnsafeJSON(_ data: Data) async throws {
        if data.count > 64 << 10 {
            try await offload { try refuseUnsafeJSON(in: data) }
        } else {
            try refuseUnsafeJSON(in: data)
        }
    }

    /// A 400 for a JSON body with a key twice in one object; a 422 for a string with the
    /// NUL character (`prefix` goes before the body's own pointers: a sync batch's plaintext
    /// is under `/ciphertext`).
    static func refuseUnsafeJSON(in data: Data, under prefix: String = "") throws {
        switch JSONDuplicateKeys.firstProblem(in: data) {
        case (.duplicateKey, let pointer)?:
            throw Problem.badRequest("a key appears twice in one object; send each key once", pointer: prefix + pointer)
        case (.nulCharacter, let pointer)?:
            throw Problem.unprocessable(
                "a string holds the NUL character (\\u0000), which no store keeps; remove it", pointer: prefix + pointer)
        case nil: break
        }
    }
}

extension RequestContext {
    /// The checked bytes of the request's JSON body (``HealthRequestDecoder/body(of:limit:)``),
    /// at most this context's `maxUploadSize`.
    func jsonBody(_ request: Request) async throws -> Data {
        try await HealthRequestDecoder.body(of: request, limit: maxUploadSize)
    }
}

/// A value written with its own wire encoder (samples and days have theirs), as JSON.
struct WireJSON<Value: Encodable>: ResponseGenerator {
    let value: Value
    let encoder: JSONEncoder

    func response(from request: Request, context: some RequestContext) throws -> Response {
        HealthResponseEncoder.response(try encoder.encode(value))
    }
}

/// Sets the context's `maxUploadSize`: the largest JSON body the routes after it decode.
struct BodyLimitMiddleware<Context: HealthServerContext>: RouterMiddleware {
    let bytes: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var context = context
        context.maxUploadSize = bytes
        return try await next(request, context)
    }
}

/// Runs CPU-heavy request work (decoding a body of up to 100,000 samples takes about a
/// second) on NIO's blocking pool, so the cooperative pool and the event loops stay free
/// for every other request (`/healthz` answers during a large ingest).
func offload<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await NIOThreadPool.singleton.runIfActive(body)
}
