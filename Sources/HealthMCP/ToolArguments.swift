import Foundation
import HealthCore
import MCP

/// A tool call that cannot be answered: what is wrong, and what to do instead. Answered as
/// an MCP tool error (`isError: true`), never as a crash or a protocol error.
struct ToolError: Error, CustomStringConvertible {
    let message: String
    let hint: String

    var description: String { "\(message). \(hint)" }
}

/// A tool's arguments, read with clear errors.
struct ToolArguments {
    let values: [String: Value]
    let tool: String

    init(_ values: [String: Value]?, tool: String) {
        self.values = values ?? [:]
        self.tool = tool
    }

    /// Rejects names the tool does not take (a misspelt argument is not silently ignored).
    func only(_ names: Set<String>) throws {
        let unknown = Set(values.keys).subtracting(names)
        guard unknown.isEmpty else {
            throw ToolError(
                message: "\(tool) takes no argument \(unknown.sorted().map { "'\($0)'" }.joined(separator: ", "))",
                hint: "Its arguments are \(names.sorted().joined(separator: ", ")).")
        }
    }

    func string(_ name: String) throws -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw ToolError(message: "\(name) must be a string", hint: "Pass \(name) as text.")
        }
        return text
    }

    func date(_ name: String) throws -> LocalDate? {
        guard let text = try string(name) else { return nil }
        guard let date = LocalDate(text) else {
            throw ToolError(
                message: "\(name) must be a date YYYY-MM-DD, not '\(text.prefix(40))'", hint: "For example 2024-06-01.")
        }
        return date
    }

    func requiredDate(_ name: String) throws -> LocalDate {
        guard let date = try date(name) else {
            throw ToolError(message: "\(name) is required", hint: "Pass \(name) as YYYY-MM-DD.")
        }
        return date
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        let number: Int?
        switch value {
        case .int(let int): number = int
        case .double(let double) where double == double.rounded() && abs(double) < 1e9: number = Int(double)
        case .string(let text): number = Int(text)
        default: number = nil
        }
        guard let number, range.contains(number) else {
            throw ToolError(
                message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)",
                hint: "For example \(name)=\(range.lowerBound).")
        }
        return number
    }

    func bool(_ name: String) throws -> Bool {
        guard let value = values[name], !value.isNull else { return false }
        if let bool = value.boolValue { return bool }
        if let text = value.stringValue, let bool = Bool(text) { return bool }
        throw ToolError(message: "\(name) must be true or false", hint: "Pass \(name): true.")
    }

    func choice(_ name: String, _ allowed: [String]) throws -> String? {
        guard let text = try string(name) else { return nil }
        guard allowed.contains(text) else {
            throw ToolError(
                message: "\(name) must be one of \(allowed.joined(separator: ", ")), not '\(text.prefix(40))'",
                hint: "Pick one of those.")
        }
        return text
    }

    /// `from`…`to` (both required), in order, at most `maxDays` long.
    func range(maxDays: Int) throws -> (LocalDate, LocalDate) {
        let first = try requiredDate("from")
        let last = try requiredDate("to")
        guard first <= last else {
            throw ToolError(message: "from (\(first)) is after to (\(last))", hint: "Swap them.")
        }
        guard last.dayNumber - first.dayNumber < maxDays else {
            throw ToolError(
                message: "the range is \(last.dayNumber - first.dayNumber + 1) days; \(tool) takes at most \(maxDays)",
                hint: "Ask for a shorter range, or several.")
        }
        return (first, last)
    }
}

/// Schema pieces for the tools' `inputSchema`.
enum Schema {
    static func object(_ properties: [String: Value], required: [String] = []) -> Value {
        .object([
            "type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }),
            "additionalProperties": false,
        ])
    }

    static func date(_ description: String) -> Value {
        .object(["type": "string", "format": "date", "description": .string(description)])
    }

    static func string(_ description: String, oneOf values: [String]? = nil) -> Value {
        var schema: [String: Value] = ["type": "string", "description": .string(description)]
        if let values { schema["enum"] = .array(values.map { .string($0) }) }
        return .object(schema)
    }

    static func integer(_ description: String, _ range: ClosedRange<Int>) -> Value {
        .object([
            "type": "integer", "description": .string(description), "minimum": .int(range.lowerBound),
            "maximum": .int(range.upperBound),
        ])
    }

    static func bool(_ description: String) -> Value {
        .object(["type": "boolean", "description": .string(description)])
    }
}
