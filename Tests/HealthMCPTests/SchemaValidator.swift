import MCP

/// A JSON Schema (draft 2020-12) validator for the subset the tools' output schemas use:
/// `type` (a name or a list of names), `properties`, `required`, `additionalProperties: false`,
/// `items`, `enum`, `minimum`, `maximum` (and `description`, which validates nothing).
///
/// Two ways it is stricter than the standard, so a schema cannot pass by what this does not
/// check: any other keyword is an error, and `integer` takes only a Swift `Int` — a `Double`
/// is a `number` even when it happens to be whole (the standard would take `60.0` as an
/// integer, and the next answer's `60.5` would then fail).
enum SchemaValidator {
    static let keywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "minimum", "maximum", "description",
    ]
    static let types: Set<String> = ["null", "boolean", "integer", "number", "string", "array", "object"]

    /// Every way `value` breaks `schema`, each as "path: what" (`$.days[3].steps: expected
    /// integer or null, got number`); empty when it conforms. Values are never in the text.
    static func errors(_ value: Value, against schema: Value, at path: String = "$") -> [String] {
        guard case .object(let schema) = schema else { return ["\(path): the schema is not an object"] }
        var errors = schema.keys.filter { !keywords.contains($0) }.sorted().map { "\(path): unsupported keyword \($0)" }
        if let type = schema["type"] {
            let names = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
            if names.isEmpty || !types.isSuperset(of: names) {
                return errors + ["\(path): unsupported type"]
            }
            guard names.contains(where: { matches(value, $0) }) else {
                return errors + ["\(path): expected \(names.joined(separator: " or ")), got \(name(of: value))"]
            }
        }
        if let allowed = schema["enum"] {
            if let allowed = allowed.arrayValue {
                if !allowed.contains(value) { errors.append("\(path): not one of the enum") }
            } else {
                errors.append("\(path): enum is not an array")
            }
        }
        if let figure = number(value) {
            if let minimum = schema["minimum"], let bound = number(minimum), figure < bound {
                errors.append("\(path): below the minimum \(minimum)")
            }
            if let maximum = schema["maximum"], let bound = number(maximum), figure > bound {
                errors.append("\(path): above the maximum \(maximum)")
            }
        }
        if case .object(let object) = value {
            let properties = schema["properties"]?.objectValue ?? [:]
            for key in (schema["required"]?.arrayValue ?? []).compactMap(\.stringValue) where object[key] == nil {
                errors.append("\(path): missing \(key)")
            }
            let closed = schema["additionalProperties"] == .bool(false)
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[key] {
                    errors += self.errors(member, against: property, at: "\(path).\(key)")
                } else if closed {
                    errors.append("\(path): unexpected key \(key)")
                }
            }
        }
        if case .array(let items) = value, let itemSchema = schema["items"] {
            for (index, item) in items.enumerated() {
                errors += self.errors(item, against: itemSchema, at: "\(path)[\(index)]")
            }
        }
        return errors
    }

    /// Whether `value` is of the JSON type `type` (`integer`: an `Int` only).
    static func matches(_ value: Value, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .int), ("number", .int), ("number", .double),
            ("string", .string), ("string", .data), ("array", .array), ("object", .object):
            true
        default: false
        }
    }

    static func name(of value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string, .data: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    static func number(_ value: Value) -> Double? {
        switch value {
        case .int(let int): Double(int)
        case .double(let double): double
        default: nil
        }
    }

    /// Every property a schema declares, as a path: `get_sleep.nights[].main.stage_minutes.deep`.
    static func propertyPaths(of schema: Value, at path: String) -> Set<String> {
        var paths: Set<String> = []
        for (key, property) in schema.objectValue?["properties"]?.objectValue ?? [:] {
            paths.insert("\(path).\(key)")
            paths.formUnion(propertyPaths(of: property, at: "\(path).\(key)"))
        }
        if let items = schema.objectValue?["items"] { paths.formUnion(propertyPaths(of: items, at: "\(path)[]")) }
        return paths
    }

    /// Every key a value holds, as a path in the same form.
    static func keyPaths(of value: Value, at path: String) -> Set<String> {
        var paths: Set<String> = []
        if case .object(let object) = value {
            for (key, member) in object {
                paths.insert("\(path).\(key)")
                paths.formUnion(keyPaths(of: member, at: "\(path).\(key)"))
            }
        }
        if case .array(let items) = value {
            for item in items { paths.formUnion(keyPaths(of: item, at: "\(path)[]")) }
        }
        return paths
    }

    /// The objects of a schema that let keys through unlisted (no `additionalProperties:
    /// false`) or require a key they do not list, as paths.
    static func openObjects(in schema: Value, at path: String) -> [String] {
        guard let node = schema.objectValue else { return [path] }
        var open: [String] = []
        let types = node["type"]?.arrayValue?.compactMap(\.stringValue) ?? node["type"]?.stringValue.map { [$0] } ?? []
        let properties = node["properties"]?.objectValue ?? [:]
        if types.contains("object") {
            let required = (node["required"]?.arrayValue ?? []).compactMap(\.stringValue)
            if node["additionalProperties"] != .bool(false) || !required.allSatisfy({ properties[$0] != nil }) {
                open.append(path)
            }
        }
        for (key, property) in properties.sorted(by: { $0.key < $1.key }) {
            open += openObjects(in: property, at: "\(path).\(key)")
        }
        if let items = node["items"] { open += openObjects(in: items, at: "\(path)[]") }
        return open
    }
}
