import Foundation
import HealthCore
import PostgresNIO

extension PostgresRecordWriter {
    /// Reads what is stored under the writer-given UUIDs of `records` (whose content keys
    /// are `keys`), and which of their content keys are stored: three statements per batch.
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
        for try await (uuid, type) in try await connection.query(
            "SELECT uuid, type_id FROM health_sample WHERE user_id = \(userID) AND uuid = ANY(\(uuids))", logger: logger
        ).decode((UUID, Int32).self) {
            identities.stored[uuid] = type
        }
        for try await (uuid, type) in try await connection.query(
            "SELECT uuid, type_id FROM health_tombstone WHERE user_id = \(userID) AND uuid = ANY(\(uuids))", logger: logger
        ).decode((UUID, Int32).self) {
            identities.deleted[uuid] = type
        }
        for try await (key, uuid) in try await connection.query(
            "SELECT content_key, uuid FROM health_sample WHERE user_id = \(userID) AND content_key = ANY(\(storedKeys))",
            logger: logger
        ).decode((UUID, UUID).self) {
            identities.keys.insert(ContentKey(storedUUID: key))
            identities.holders[ContentKey(storedUUID: key)] = uuid
        }
    }
}
