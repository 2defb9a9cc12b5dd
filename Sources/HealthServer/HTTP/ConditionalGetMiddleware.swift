import Crypto
import Foundation
import HealthServerRecords
import Hummingbird

/// `ETag` on the JSON answers of `GET`s, and `304 Not Modified` without a body for an
/// `If-None-Match` that names it (issue 37 §3; docs/api.md §Conditional reads): a client
/// polling its days costs a hash, not a body. The tag is the SHA-256 of the answer's bytes
/// (the first 16, base64url), so it changes exactly when the answer does — a new day, a
/// day recomputed, another token's withheld kinds — whatever changed it.
///
/// Only answers of at most ``maximumBytes`` with their length known (every JSON answer is
/// encoded whole before it is sent; the CSV export streams and is left alone).
struct ConditionalGetMiddleware<Context: RequestContext>: RouterMiddleware {
    static var maximumBytes: Int { 16 << 20 }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var response = try await next(request, context)
        // A HEAD is answered as its GET (the router's HEAD endpoints), its tag too.
        guard request.method == .get || request.method == .head, response.status == .ok,
            response.headers[.contentType]?.hasPrefix("application/json") == true,
            let length = response.body.contentLength, length <= Self.maximumBytes
        else { return response }
        let collector = BodyCollector()
        let body = response.body
        try await body.write(collector)
        let bytes = collector.buffer
        let digest = SHA256.hash(data: bytes.readableBytesView)
        let tag = "\"" + Secrets.base64URL(Array(digest.prefix(16))) + "\""
        response.headers[.eTag] = tag
        response.headers[.cacheControl] = "private, no-cache"
        if let condition = request.headers[.ifNoneMatch], Self.matches(condition, tag) {
            var headers = response.headers
            headers[.contentType] = nil
            headers[.contentLength] = nil
            return Response(status: .notModified, headers: headers, body: .init())
        }
        response.body = .init(byteBuffer: bytes)
        return response
    }

    /// `If-None-Match`: `*`, or a list of tags compared weakly (a `W/` prefix ignored).
    static func matches(_ condition: String, _ tag: String) -> Bool {
        condition.split(separator: ",").contains { part in
            let candidate = part.trimmingCharacters(in: .whitespaces)
            return candidate == "*" || (candidate.hasPrefix("W/") ? String(candidate.dropFirst(2)) : candidate) == tag
        }
    }
}

/// Collects a response body's bytes.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ part: ByteBuffer) async throws {
        var part = part
        buffer.writeBuffer(&part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
