import Foundation
import HealthCore
import PostgresNIO

extension PostgresRecordWriter {
    /// Reads what is stored under the writer-given UUIDs of `records` (whose content keys
    /// are `keys`), and which of their content keys are stored: one statement per batch.
    func learnIdentities(of records: [HealthRecord], keys: [ContentKey]) async throws {
        var uuids: [UUID] = []
        var storedKeys: [UUID] = []
        func note(_ uuid: UUID?, key: ContentKey) {
            guard let uuid, identities.stored[uuid] == nil else { return }
            uuids.append(uuid)
            storedKeys.append(key.storedUUID)
            storedKeys.append(key.distinguished(by: uuid).storedUUID)
        }
        for (record, key) in zip(records, keys) {
            switch record {
            case .sample(let sample): note(sample.givenUUID, key: key)
            case .workout(let workout): note(workout.givenUUID, key: key)
            case .audiogram(let audiogram): note(audiogram.sample.givenUUID, key: key)
            case .correlation(let correlation):
                note(correlation.givenUUID, key: key)
                for member in correlation.objects { note(member.givenUUID, key: member.contentKey) }
            default: break
            }
        }
        guard !uuids.isEmpty else { return }
        // 0: a stored sample's UUID and type; 1: a deleted one's; 2: a stored content key
        // and the UUID of its row.
        for try await (kind, first, type, second) in try await connection.query(
            """
            SELECT 0, uuid, type_id, NULL::uuid FROM health_sample WHERE user_id = \(userID) AND uuid = ANY(\(uuids))
            UNION ALL
            SELECT 1, uuid, type_id, NULL::uuid FROM health_tombstone WHERE user_id = \(userID) AND uuid = ANY(\(uuids))
            UNION ALL
            SELECT 2, content_key, NULL::integer, uuid FROM health_sample
            WHERE user_id = \(userID) AND content_key = ANY(\(storedKeys))
            """, logger: logger
        ).decode((Int32, UUID, Int32?, UUID?).self) {
            switch (kind, type, second) {
            case (0, let type?, _): identities.stored[first] = type
            case (1, let type?, _): identities.deleted[first] = type
            case (2, _, let holder?):
                identities.keys.insert(ContentKey(storedUUID: first))
                identities.holders[ContentKey(storedUUID: first)] = holder
            default: break
            }
        }
    }
}
