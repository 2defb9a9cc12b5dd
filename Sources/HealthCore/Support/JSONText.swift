import Foundation

/// JSON text for the few columns that hold structure (verbatim elements, ECG headers,
/// a workout's details in PostgreSQL): sorted keys, so equal values give equal text.
package enum JSONText {
    package static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    package static func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }
}
