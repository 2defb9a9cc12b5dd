import Foundation
import HealthCore
import PostgresNIO

/// The type, source and device ids a writer's rows refer to (``InternedNames``): new names
/// are interned outside this transaction, and the sources and devices it uses are locked
/// `FOR KEY SHARE` and recorded as the user's, so no user deletion removes them before it
/// commits.
extension PostgresRecordWriter {
    /// The ids of `sample`'s type, source and device in this transaction.
    func nameIDs(of sample: Sample) async throws -> (type: Int32, source: Int32, device: Int32?) {
        if let ids = usableIDs(of: sample) { return ids }
        try await useNames(of: [sample])
        guard let ids = usableIDs(of: sample) else { throw PostgresHealthStoreError("an interned name vanished") }
        return ids
    }

    /// Makes the names of `samples` usable in this transaction (a few statements for a whole batch).
    func useNames(of samples: [Sample]) async throws {
        try await database.names.use(
            samples, userID: userID, pending: &interned, connection: connection, interning: database.pool.autocommit,
            logger: logger)
    }

    /// The id of `type` (interned outside this transaction if no one stored it yet).
    func typeID(of type: SampleType) async throws -> Int32 {
        if let id = interned.types[type.identifier] { return id }
        let id = try await database.names.typeID(interning: type, client: database.pool.autocommit, logger: logger)
        interned.types[type.identifier] = id
        return id
    }

    private func usableIDs(of sample: Sample) -> (type: Int32, source: Int32, device: Int32?)? {
        guard let type = interned.types[sample.type.identifier], let source = interned.sources[sample.source] else {
            return nil
        }
        guard let device = sample.device else { return (type, source, nil) }
        guard let id = interned.devices[device.storageKey]?.0 else { return nil }
        return (type, source, id)
    }

    /// Every sample row `records` may write: samples, workouts' and audiograms' own rows,
    /// correlations and their members.
    static func samples(in records: [HealthRecord]) -> [Sample] {
        var samples: [Sample] = []
        samples.reserveCapacity(records.count)
        for record in records {
            switch record {
            case .sample(let sample): samples.append(sample)
            case .workout(let workout): samples.append(workout.header)
            case .audiogram(let audiogram): samples.append(audiogram.sample)
            case .correlation(let correlation):
                samples.append(correlation.header)
                samples += correlation.objects
            default: break
            }
        }
        return samples
    }
}
