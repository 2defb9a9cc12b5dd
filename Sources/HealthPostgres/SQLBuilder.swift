import PostgresNIO

/// A statement put together piece by piece, each value bound as a `$n` parameter (never
/// spliced into the text).
struct SQLBuilder {
    private(set) var text: String
    private(set) var binds: PostgresBindings

    init(_ text: String = "", capacity: Int = 16) {
        self.text = text
        binds = PostgresBindings(capacity: capacity)
    }

    mutating func append(_ literal: String) { text += literal }

    /// Binds `value` and appends its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) {
        binds.append(value)
        text += "$\(binds.count)"
    }

    /// Binds `value` and returns its placeholder, to be written (once or more) later.
    mutating func parameter<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: text, binds: binds) }
}
