import Foundation
import MCP

/// The `params` of a request the server answers, checked as the SDK will decode them: a
/// request whose params its method cannot read (`{"name": 5}` for `tools/call`, a string, an
/// array) is answered here with Invalid params (-32602) under its own id, naming the field.
/// The SDK answered each with Internal error (-32603) and "The data isn't in the correct
/// format", which says neither what nor where.
enum InvalidParams {
    /// Why `item`'s params cannot be read by its method (`nil`: they can, or the method is
    /// not one the server answers, which the SDK refuses itself).
    static func reason(_ item: [String: Value]) -> String? {
        guard case .string(let method)? = item["method"], item["id"] != nil, let check = checks[method] else { return nil }
        return check(item["params"]).map { "Invalid params: \(method): \($0)" }
    }

    /// The methods the coach's server answers (its own and the SDK's), each with its check.
    private static let checks: [String: @Sendable (Value?) -> String?] = [
        Initialize.name: check(Initialize.self), Ping.name: check(Ping.self), ListTools.name: check(ListTools.self),
        CallTool.name: check(CallTool.self), ListResources.name: check(ListResources.self),
        ListResourceTemplates.name: check(ListResourceTemplates.self), ReadResource.name: check(ReadResource.self),
        ListPrompts.name: check(ListPrompts.self), GetPrompt.name: check(GetPrompt.self),
    ]

    /// Decodes params as `Request<M>` does: absent or `null` only where the method needs
    /// none; otherwise they must read as its parameters.
    private static func check<M: MCP.Method>(_: M.Type) -> @Sendable (Value?) -> String? {
        { params in
            let optional = M.Parameters.self is NotRequired.Type || M.Parameters.self == Empty.self
            guard let params, params != .null else { return optional ? nil : "params is missing" }
            do {
                _ = try JSONDecoder().decode(M.Parameters.self, from: try JSONEncoder().encode(params))
                return nil
            } catch let error as DecodingError {
                return describe(error)
            } catch {
                return "params cannot be read"
            }
        }
    }

    /// `name must be a string`, `uri is missing`, `params must be an object`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey], _ last: String? = nil) -> String {
            let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } + (last.map { [$0] } ?? [])
            return names.isEmpty ? "params" : names.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) must be \(kind(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) must be \(kind(type)), not null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath, key.stringValue)) is missing"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)) cannot be read"
        @unknown default:
            return "params cannot be read"
        }
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: String(describing: type).hasPrefix("Dictionary") ? "an object" : "an object or a value of its kind"
        }
    }
}
