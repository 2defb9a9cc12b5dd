import Foundation
import Hummingbird
import NIOCore

/// The forms the pages post, and where a sign-in may lead.
extension WebRoutes {
    /// Where a sign-in may go on to: only an app's authorization request on this server
    /// (`/oauth/authorize?…`), so that the form sends no one elsewhere.
    static func signInNext(_ next: String?) -> String? {
        guard let next, next.hasPrefix("/oauth/authorize?"), next.utf8.count <= 8192,
            next.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7f && $0 != "\\" })
        else { return nil }
        return next
    }

    /// An `application/x-www-form-urlencoded` body (at most 16 KB) as name → value.
    static func form(_ request: Request) async throws -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in try await formPairs(request) { fields[name] = value }
        return fields
    }

    /// ``form(_:)``'s fields in order, a name given twice twice.
    static func formPairs(_ request: Request) async throws -> [(String, String)] {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("application/x-www-form-urlencoded")
        else {
            throw Problem(
                .unsupportedMediaType, "Unsupported media type", detail: "send the form as application/x-www-form-urlencoded")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 16 << 10)
        } catch is NIOTooManyBytesError {
            throw Problem(.contentTooLarge, "Body too large", detail: "a form is at most 16 KB")
        }
        return try pairs(String(buffer: body))
    }

    /// The name–value pairs of `application/x-www-form-urlencoded` text (a form, a query), in
    /// order, repeated names included; `nil` when it is not valid URL encoding.
    static func urlEncodedPairs(_ text: String) -> [(String, String)]? {
        var fields: [(String, String)] = []
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            fields.append((name, value))
        }
        return fields
    }

    private static func pairs(_ text: String) throws -> [(String, String)] {
        guard let pairs = urlEncodedPairs(text) else { throw Problem.badRequest("the form is not valid URL encoding") }
        return pairs
    }
}
