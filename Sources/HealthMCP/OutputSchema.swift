import HealthCore
import MCP

/// The tools' `outputSchema`s (JSON Schema, draft 2020-12, as MCP 2025-06-18 expects): what
/// each answer's structured content holds, and the pieces they are built of.
///
/// Every object lists all its keys and allows no other (`additionalProperties: false`, so a
/// renamed key fails); a key is required unless it is named optional (present in some answers
/// only, such as `next_from`). A nullable value is `null` when there is no data — never a
/// zero standing in for it. A Swift `Int` is an `integer`; a `Double` is a `number`, even when
/// it happens to be whole.
///
/// ```swift
/// OutputSchema.object(["steps": OutputSchema.integer("Steps.", nullable: true)])
/// // {"type": "object", "properties": {"steps": {"type": ["integer", "null"], …}},
/// //  "required": ["steps"], "additionalProperties": false}
/// ```
enum OutputSchema {
    /// An object of exactly `properties`, each required unless named in `optional`.
    static func object(
        _ properties: [String: Value], optional: Set<String> = [], nullable: Bool = false, description: String? = nil
    ) -> Value {
        let required = properties.keys.filter { !optional.contains($0) }.sorted()
        return leaf(
            "object", description, nullable,
            [
                "properties": .object(properties), "required": .array(required.map { .string($0) }),
                "additionalProperties": .bool(false),
            ])
    }

    /// An array of `items`.
    static func array(_ description: String? = nil, of items: Value) -> Value {
        leaf("array", description, false, ["items": items])
    }

    /// A `Double`: `number`.
    static func number(_ description: String? = nil, nullable: Bool = false) -> Value {
        leaf("number", description, nullable)
    }

    /// An `Int`: `integer`, within `range` when given.
    static func integer(_ description: String? = nil, nullable: Bool = false, in range: ClosedRange<Int>? = nil) -> Value {
        var bounds: [String: Value] = [:]
        if let range {
            bounds["minimum"] = .int(range.lowerBound)
            bounds["maximum"] = .int(range.upperBound)
        }
        return leaf("integer", description, nullable, bounds)
    }

    static func string(_ description: String? = nil, nullable: Bool = false) -> Value {
        leaf("string", description, nullable)
    }

    static func boolean(_ description: String? = nil, nullable: Bool = false) -> Value {
        leaf("boolean", description, nullable)
    }

    /// A string that is one of `values` (or `null`, when nullable).
    static func choice(_ description: String? = nil, of values: [String], nullable: Bool = false) -> Value {
        let allowed = values.map { Value.string($0) } + (nullable ? [Value.null] : [])
        return leaf("string", description, nullable, ["enum": .array(allowed)])
    }

    /// The kinds of data (`withheld` lists).
    static let kind = choice(of: HealthDataCategory.allCases.map(\.rawValue))

    /// `next_from`: where the next page starts.
    static let nextFrom = string("The first day of the next page (YYYY-MM-DD); absent on the last page.")

    /// `latest_data`: the day a default moved to.
    static let latestData = string("The last day with data, when the default day moved to it (YYYY-MM-DD).")

    /// `more` with the type (and `null`, when nullable) and the description.
    private static func leaf(_ type: String, _ about: String?, _ nullable: Bool, _ more: [String: Value] = [:]) -> Value {
        var schema = more
        schema["type"] = nullable ? Value.array([.string(type), .string("null")]) : Value.string(type)
        if let about { schema["description"] = .string(about) }
        return .object(schema)
    }
}

extension Value {
    /// This schema with `description` in place of its own.
    func with(description: String) -> Value {
        guard case .object(var fields) = self else { return self }
        fields["description"] = .string(description)
        return .object(fields)
    }
}
