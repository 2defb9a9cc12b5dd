import Foundation
import GRDB
import HealthCore

/// Everything a store holds, row for row, for `healthpipe migrate` (a copy whose change
/// feed is this one's, anchor for anchor).
extension HealthDatabase {
    /// Up to `limit` stored samples after `anchor`, in anchor order, with their content keys
    /// and everything attached (metadata, beats, a workout's details, an audiogram's points,
    /// a correlation's members).
    package func storedRows(after anchor: Int64, limit: Int) throws -> [StoredSampleRow] {
        try pool.read { db in
            let found = try SQLiteHealthStore.fetchWithAnchors(
                db, where: "s.anchor > ? ORDER BY s.anchor LIMIT ?", arguments: [anchor, limit])
            var keys: [Int64: ContentKey] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT anchor, content_key FROM sample WHERE anchor > ? ORDER BY anchor LIMIT ?",
                arguments: [anchor, limit])
            {
                keys[row[0]] = ContentKey(bytes: row[1] as Data)
            }
            return try found.map { anchor, sample in
                guard let key = keys[anchor] else { throw DatabaseError(message: "a sample row without its content key") }
                var row = StoredSampleRow(anchor: anchor, key: key, sample: sample)
                row.workout = try Self.workoutDetails(db, anchor: anchor)
                row.audiogramPoints = try Self.audiogramPoints(db, anchor: anchor)
                row.members = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT s.uuid, s.content_key FROM correlation_member m JOIN sample s ON s.anchor = m.member
                        WHERE m.correlation = ? ORDER BY m.member
                        """, arguments: [anchor]
                ).map { try UUID.ofSampleRow(given: $0[0] as Data?, key: $0[1] as Data) }
                return row
            }
        }
    }

    /// The details of the workout at `anchor`; its routes left out unless `withRoutes`.
    static func workoutDetails(_ db: Database, anchor: Int64, withRoutes: Bool = true) throws -> WorkoutDetails? {
        guard
            let workout = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM workout WHERE anchor = ?"), arguments: [anchor])
        else {
            return nil
        }
        func metadata(_ kind: MetadataOwner, _ owner: Int64) throws -> [MetadataEntry] {
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT key, value FROM metadata WHERE owner_kind = ? AND owner = ? ORDER BY position"),
                arguments: [kind.rawValue, owner]
            ).map { MetadataEntry(key: $0[0], value: $0[1]) }
        }
        func date(_ value: Double?) -> Date? { value.map(Date.init(timeIntervalSince1970:)) }
        let events = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM workout_event WHERE workout = ? ORDER BY position"), arguments: [anchor]
        ).map { row in
            WorkoutEvent(
                type: row["type"], date: Date(timeIntervalSince1970: row["date"]), duration: row["duration"],
                durationUnit: row["duration_unit"], metadata: try metadata(.workoutEvent, row["id"]))
        }
        let statistics = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM workout_statistic WHERE workout = ? ORDER BY position"), arguments: [anchor]
        ).map { row in
            WorkoutStatistic(
                type: SampleType(row["type"]), start: date(row["start"]), end: date(row["end"]), average: row["average"],
                minimum: row["minimum"], maximum: row["maximum"], sum: row["sum"], unit: row["unit"])
        }
        let routes: [WorkoutRoute] =
            try !withRoutes
            ? []
            : Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT r.*, src.name AS source_name, src.version AS source_version FROM workout_route r
                        LEFT JOIN source src ON src.id = r.source_id WHERE r.workout = ? ORDER BY r.position
                        """), arguments: [anchor]
            ).map { row in
                let id: Int64 = row["id"]
                let points = try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT time, latitude, longitude, elevation, speed, course, horizontal_accuracy, vertical_accuracy
                            FROM route_point WHERE route = ? ORDER BY position
                            """), arguments: [id]
                ).map { point in
                    RoutePoint(
                        time: date(point[0]), latitude: point[1], longitude: point[2], elevation: point[3], speed: point[4],
                        course: point[5], horizontalAccuracy: point[6], verticalAccuracy: point[7])
                }
                let version: String? = row["source_version"]
                let device = try (row["device_id"] as Int64?).flatMap { id in
                    try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM device WHERE id = ?"), arguments: [id]).map(
                        DeviceRow.device(from:))
                }
                return WorkoutRoute(
                    source: (row["source_name"] as String?).map {
                        Source(name: $0, version: version?.isEmpty ?? true ? nil : version)
                    },
                    device: device, start: date(row["start"]), end: date(row["end"]), creationDate: date(row["creation_date"]),
                    metadata: try metadata(.workoutRoute, id), filePath: row["file_path"], points: points)
            }
        let extras = try (workout["extras_json"] as String?).map { try JSONText.decode([RawElement].self, from: $0) } ?? []
        return WorkoutDetails(
            duration: workout["duration"], durationUnit: workout["duration_unit"], totalDistance: workout["total_distance"],
            totalDistanceUnit: workout["total_distance_unit"], totalEnergyBurned: workout["total_energy_burned"],
            totalEnergyBurnedUnit: workout["total_energy_burned_unit"], events: events, statistics: statistics,
            routes: routes, extras: extras)
    }

    private static func audiogramPoints(_ db: Database, anchor: Int64) throws -> [SensitivityPoint]? {
        let rows = try Row.fetchAll(
            db, sql: "SELECT * FROM audiogram_point WHERE sample = ? ORDER BY position", arguments: [anchor])
        guard !rows.isEmpty else { return nil }
        return try rows.map { row in
            SensitivityPoint(
                frequency: row["frequency"], frequencyUnit: row["frequency_unit"], leftEar: row["left_ear"],
                rightEar: row["right_ear"], unit: row["unit"],
                attributes: try JSONText.decode([MetadataEntry].self, from: row["attributes_json"]))
        }
    }

    /// Every tombstone, in anchor order.
    package func storedTombstones() throws -> [DeletedObject] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT d.anchor, d.uuid, t.identifier FROM tombstone d JOIN sample_type t ON t.id = d.type_id ORDER BY d.anchor"
            ).compactMap { row in
                UUID(bytes: row[1] as Data).map { DeletedObject(uuid: $0, type: SampleType(row[2]), anchor: QueryAnchor(row[0])) }
            }
        }
    }

    /// Clinical records, ECGs and elements kept as read, with their content keys.
    package func storedRecords() throws -> [StoredRecord] {
        let ecgs = try electrocardiograms()
        return try pool.read { db in
            var records: [StoredRecord] = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM clinical_record ORDER BY id") {
                let record = ClinicalRecord(
                    type: row["type"], identifier: row["identifier"], sourceName: row["source_name"],
                    sourceURL: row["source_url"], fhirVersion: row["fhir_version"],
                    receivedDate: (row["received_date"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    resourceFilePath: row["resource_file_path"], resourceJSON: row["resource_json"])
                let key = try storedKey(row["content_key"] as Data)
                records.append(StoredRecord(key: key, record: .clinicalRecord(record)))
            }
            for row in try Row.fetchAll(db, sql: "SELECT content_key, element_json FROM raw_element ORDER BY id") {
                let element = try JSONText.decode(RawElement.self, from: row[1])
                records.append(StoredRecord(key: try storedKey(row[0] as Data), record: .other(element)))
            }
            let keys = try Row.fetchAll(db, sql: "SELECT content_key FROM electrocardiogram ORDER BY recorded_date, id")
            for (row, ecg) in zip(keys, ecgs) {
                records.append(StoredRecord(key: try storedKey(row[0] as Data), record: .electrocardiogram(ecg)))
            }
            return records
        }
    }

    /// Every day's Activity summary, with the export date it was read from.
    package func storedActivitySummaries() throws -> [ActivitySummary] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM activity_summary ORDER BY date").map { row in
                var summary = ActivitySummary(dateComponents: row["date"])
                summary.activeEnergyBurned = row["active_energy_burned"]
                summary.activeEnergyBurnedGoal = row["active_energy_burned_goal"]
                summary.activeEnergyBurnedUnit = row["active_energy_burned_unit"]
                summary.appleMoveTime = row["apple_move_time"]
                summary.appleMoveTimeGoal = row["apple_move_time_goal"]
                summary.appleExerciseTime = row["apple_exercise_time"]
                summary.appleExerciseTimeGoal = row["apple_exercise_time_goal"]
                summary.appleStandHours = row["apple_stand_hours"]
                summary.appleStandHoursGoal = row["apple_stand_hours_goal"]
                summary.asOf = (row["as_of"] as Double?).map(Date.init(timeIntervalSince1970:))
                return summary
            }
        }
    }

    /// The `Me` characteristics and the export date they were read from.
    package func storedCharacteristics() throws -> (entries: [MetadataEntry], asOf: Date?) {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT key, value, as_of FROM characteristic ORDER BY key")
            return (
                rows.map { MetadataEntry(key: $0[0], value: $0[1]) },
                rows.first.flatMap { ($0[2] as Double?).map(Date.init(timeIntervalSince1970:)) }
            )
        }
    }

    /// Every recorded import, oldest first.
    package func storedImportRuns() throws -> [ImportRun] {
        try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM import_run ORDER BY id").map(ImportRun.init(row:)) }
    }

    /// The app's own records: every daily log entry, planned workout and coach interaction.
    package func storedAppData() throws -> (logs: [DailyLogEntry], plans: [PlannedWorkout], interactions: [CoachInteraction]) {
        try pool.read { db in
            let logs = try Row.fetchAll(db, sql: "SELECT * FROM daily_log ORDER BY local_date").map { row in
                guard let date = LocalDate(row["local_date"] as String) else {
                    throw DatabaseError(message: "a daily_log row's local_date is not YYYY-MM-DD")
                }
                return try DailyLogEntry(
                    date: date, energy: row["energy"], mood: row["mood"], stress: row["stress"], note: row["note"])
            }
            let plans = try Row.fetchAll(db, sql: "SELECT * FROM planned_workout ORDER BY id").map { row in
                PlannedWorkout(
                    id: row["id"], name: row["name"], scheduledAt: Date(timeIntervalSince1970: row["scheduled_at"]),
                    durationMinutes: row["duration_minutes"],
                    startedAt: (row["started_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    finishedAt: (row["finished_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
            let interactions = try Row.fetchAll(db, sql: "SELECT * FROM coach_interaction ORDER BY id").map { row in
                CoachInteraction(id: row["id"], at: Date(timeIntervalSince1970: row["at"]), kind: row["kind"])
            }
            return (logs, plans, interactions)
        }
    }
}

/// A stored content key, or a ``DatabaseError`` when the blob is not one (a file edited by
/// hand): a migration stops with a reason instead of trapping.
private func storedKey(_ blob: Data) throws -> ContentKey {
    guard let key = ContentKey(bytes: blob) else {
        throw DatabaseError(message: "a stored content key is not 16 bytes")
    }
    return key
}
