import Foundation
import HealthCore

/// Writes, deletions and observation on the SQLite store, each one transaction on the
/// database's writer queue (the caller is suspended, never blocked).
extension SQLiteHealthStore: MutableHealthStore {
    @discardableResult
    public func add(_ samples: [Sample]) async throws -> Int {
        try await database.writeAsync { writer in
            try writer.write(samples.map(HealthRecord.sample))
            return (writer.added[.sample] ?? 0)
        }
    }

    public func delete(uuids: [UUID]) async throws -> DeletionReport {
        try await database.writeAsync { writer in try writer.delete(uuids: uuids) }
    }

    public func delete(_ type: SampleType, overlapping interval: DateInterval, source: String?) async throws -> DeletionReport {
        try await database.writeAsync { writer in try writer.delete(type, overlapping: interval, source: source) }
    }

    public func observe(_ types: Set<SampleType>?) -> ChangeNotices {
        database.observe(types)
    }
}
