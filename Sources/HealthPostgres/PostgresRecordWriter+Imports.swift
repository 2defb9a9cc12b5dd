import Foundation
import HealthCore
import PostgresNIO

/// What an import records besides its records: the person's characteristics and the run.
extension PostgresRecordWriter {
    /// Replaces the person's characteristics (`Me`) unless those stored were read from a
    /// newer export; returns whether it wrote them (as the SQLite writer).
    @discardableResult
    public func writeCharacteristics(_ characteristics: [MetadataEntry], asOf: Date?) async throws -> Bool {
        guard !characteristics.isEmpty else { return false }
        let asOf = asOf?.timeIntervalSince1970
        var newest: Double?
        for try await value in try await connection.query(
            "SELECT max(coalesce(as_of, -1e300)) FROM health_characteristic WHERE user_id = \(userID)", logger: logger
        ).decode(Double?.self) {
            newest = value
        }
        if let newest, newest > asOf ?? -1e300 { return false }
        try await connection.query("DELETE FROM health_characteristic WHERE user_id = \(userID)", logger: logger)
        for entry in characteristics {
            try await connection.query(
                """
                INSERT INTO health_characteristic (user_id, key, value, as_of) VALUES (\(userID), \(entry.key),
                    \(entry.value), \(asOf))
                ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value, as_of = EXCLUDED.as_of
                """, logger: logger)
        }
        return true
    }

    /// Records a finished import (to recognise the same input next time).
    public func recordImport(_ run: ImportRun) async throws {
        try await connection.query(
            """
            INSERT INTO health_import_run (user_id, fingerprint, run)
            VALUES (\(userID), \(run.fingerprint), \(try JSONText.encode(run))::jsonb)
            """, logger: logger)
    }
}

extension PostgresHealthStore {
    /// The latest import recorded for `fingerprint`.
    public func importRun(fingerprint: String) async throws -> ImportRun? {
        let query: PostgresQuery = """
            SELECT id, run::text FROM health_import_run WHERE user_id = \(userID) AND fingerprint = \(fingerprint)
            ORDER BY id DESC LIMIT 1
            """
        for try await (id, json) in try await database.client.query(query, logger: database.logger).decode(
            (Int64, String).self)
        {
            var run = try JSONText.decode(ImportRun.self, from: json)
            run.id = id
            return run
        }
        return nil
    }
}
