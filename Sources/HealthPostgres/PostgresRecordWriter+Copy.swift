import Foundation
import HealthCore
import PostgresNIO

/// Copies of another store's rows, anchor for anchor (`healthpipe migrate`).
extension PostgresRecordWriter {
    /// Stores `rows` with their own anchors, content keys and UUIDs (the user's samples
    /// must not overlap them: a migration starts from an empty user), then links the
    /// correlations' members.
    package func copy(_ rows: [StoredSampleRow]) async throws {
        var links: [(UUID, UUID)] = []
        try await useNames(of: rows.map(\.sample))
        for row in rows {
            let ids = try await nameIDs(of: row.sample)
            let details =
                if let workout = row.workout {
                    try workout.json()
                } else if let points = row.audiogramPoints {
                    try JSONText.encode(points)
                } else {
                    nil as String?
                }
            buffered.append(
                Row(
                    sample: row.sample, key: row.key, uuid: row.sample.uuid, anchor: row.anchor, ids: ids, details: details,
                    family: row.workout != nil ? .workout : row.audiogramPoints != nil ? .audiogram : .sample))
            nextAnchor = max(nextAnchor, row.anchor + 1)
            links += row.members.map { (row.sample.uuid, $0) }
            if buffered.count >= Self.rowsPerStatement { try await flush() }
        }
        try await flush()
        guard !links.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO health_correlation_member (user_id, correlation, member)
            SELECT \(userID), c, m FROM unnest(\(links.map(\.0))::uuid[], \(links.map(\.1))::uuid[]) AS l(c, m)
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// Stores tombstones with their own anchors.
    package func copy(_ tombstones: [DeletedObject]) async throws {
        for tombstone in tombstones {
            let type = try await typeID(of: tombstone.type)
            try await connection.query(
                """
                INSERT INTO health_tombstone (user_id, anchor, uuid, type_id)
                VALUES (\(userID), \(tombstone.anchor.rawValue), \(tombstone.uuid), \(type))
                """, logger: logger)
            deletedByTypeID[type, default: 0] += 1
            lastAnchor = max(lastAnchor, tombstone.anchor.rawValue)
            nextAnchor = max(nextAnchor, tombstone.anchor.rawValue + 1)
        }
    }

    /// Stores records kept by content key (clinical records, ECGs, elements).
    package func copy(_ records: [StoredRecord]) async throws {
        for stored in records {
            switch stored.record {
            case .clinicalRecord(let clinical):
                try await writeRecord(
                    .clinicalRecord, key: stored.key, received: clinical.receivedDate, body: try JSONText.encode(clinical))
            case .electrocardiogram(let ecg):
                try await writeRecord(
                    .electrocardiogram, key: stored.key, received: ecg.recordedDate, body: try JSONText.encode(ecg))
            case .other(let element):
                try await writeRecord(.other, key: stored.key, received: nil, body: try JSONText.encode(element))
            default:
                try await write([stored.record], keys: [stored.key])
            }
        }
    }

    /// Makes the user's last anchor at least `anchor` (a copied store's, gaps included).
    package func raiseLastAnchor(to anchor: Int64) {
        lastAnchor = max(lastAnchor, anchor)
        nextAnchor = max(nextAnchor, anchor + 1)
    }
}
