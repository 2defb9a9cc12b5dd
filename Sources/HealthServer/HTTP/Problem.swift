import Foundation
import Hummingbird

/// An error answered as `application/problem+json` (RFC 9457): what went wrong and what to
/// do, never a stack trace or a health value.
public struct Problem: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var title: String
    public var detail: String
    /// JSON Pointer (RFC 6901) to the offending field of the request body, when there is one.
    public var pointer: String?
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ title: String, detail: String, pointer: String? = nil) {
        self.status = status
        self.title = title
        self.detail = detail
        self.pointer = pointer
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var body: [String: Any] = [
            "type": "https://healthpipeline.dev/problems/\(status.code)", "title": title, "status": status.code,
            "detail": detail, "instance": request.uri.path,
        ]
        if let pointer { body["pointer"] = pointer }
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A 401 with the challenge of RFC 6750 (`WWW-Authenticate: Bearer realm="healthpipe"`).
    static func unauthorized(_ detail: String) -> Problem {
        var problem = Problem(.unauthorized, "Unauthorized", detail: detail)
        problem.headers[.wwwAuthenticate] = #"Bearer realm="healthpipe""#
        return problem
    }

    /// A 401 for a request whose user was deleted while it ran (after its token was
    /// checked): answered as the token would be now, unknown.
    static var userGone: Problem {
        var problem = unauthorized("the token is unknown or revoked")
        problem.headers[.wwwAuthenticate] = #"Bearer realm="healthpipe", error="invalid_token""#
        return problem
    }

    /// A 429 for a peer that failed to authenticate too often this minute.
    static func tooManyFailures(retryAfter wait: Int) -> Problem {
        var problem = Problem(
            .tooManyRequests, "Too many requests",
            detail: "too many failed sign-ins from this address; retry after \(wait) s")
        problem.headers[.retryAfter] = String(wait)
        return problem
    }

    static func badRequest(_ detail: String, pointer: String? = nil) -> Problem {
        Problem(.badRequest, "Bad request", detail: detail, pointer: pointer)
    }

    static func unprocessable(_ detail: String, pointer: String) -> Problem {
        Problem(.unprocessableContent, "Unprocessable payload", detail: detail, pointer: pointer)
    }

    /// Well-formed parameters that cannot go together (`from` after `to`, `lat` without
    /// `lon`): a 422, since no schema can state them and the request is otherwise valid.
    static func unprocessableQuery(_ detail: String) -> Problem {
        Problem(.unprocessableContent, "Unprocessable request", detail: detail)
    }

    /// The JSON Pointer of a decoding error's path (`/3/local_date`).
    static func pointer(_ path: [any CodingKey]) -> String {
        path.map { key in "/" + (key.intValue.map(String.init) ?? key.stringValue) }.joined()
    }

    /// A 400 for a body that does not decode, naming the field.
    static func decoding(_ error: DecodingError) -> Problem {
        switch error {
        case .keyNotFound(let key, let context):
            return .badRequest(
                "missing field '\(key.stringValue)'", pointer: pointer(context.codingPath + [key]))
        case .typeMismatch(let type, let context):
            return .badRequest("expected \(Self.describe(type)) here", pointer: pointer(context.codingPath))
        case .valueNotFound(let type, let context):
            return .badRequest("expected \(Self.describe(type)), found null", pointer: pointer(context.codingPath))
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? .badRequest("the body is not valid JSON")
                : .badRequest(context.debugDescription, pointer: pointer(context.codingPath))
        @unknown default:
            return .badRequest("the body does not decode")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Date.Type: "an ISO 8601 instant"
        case is Array<Any>.Type: "an array"
        case is Dictionary<String, Any>.Type: "an object"
        case is Bool.Type: "true or false"
        // Never a Swift type's name: what the server is written in is not the client's business.
        default: "a value of another kind"
        }
    }
}
