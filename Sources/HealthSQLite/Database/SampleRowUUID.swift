import Foundation
import GRDB
import HealthCore

extension UUID {
    /// A `sample` row's UUID: its `uuid` column when a writer gave one that the content key
    /// does not derive, else the one the key derives (docs/store.md §Identity).
    static func ofSampleRow(given: (some Collection<UInt8>)?, key: some Collection<UInt8>) throws -> UUID {
        if let given, let uuid = UUID(bytes: given) { return uuid }
        guard let key = ContentKey(bytes: key) else {
            throw DatabaseError(message: "a sample row's content key is not 16 bytes")
        }
        return key.uuid
    }
}
