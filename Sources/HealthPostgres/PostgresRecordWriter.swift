import Foundation
import HealthCore
import Logging
import PostgresNIO

/// Writes ``HealthRecord`` values for one user inside one open transaction, with the SQLite
/// writer's rules (docs/store.md §Identity and deletions): content keys deduplicate every
/// family, a writer-given UUID stored with other content is replaced, a UUID names samples
/// of one type. Obtain one from ``PostgresHealthStore/write(_:)``.
///
/// Plain samples are buffered and written with multi-row `INSERT … ON CONFLICT DO NOTHING
/// RETURNING anchor` statements (up to 1,000 rows each); anchors are handed out here, from
/// the user's `health_store` row locked when the transaction began.
public final class PostgresRecordWriter {
    let connection: PostgresConnection
    let database: PostgresHealthDatabase
    let userID: String
    var logger: Logger { database.logger }
    /// The anchor the next stored sample or tombstone gets.
    var nextAnchor: Int64
    /// The user's last anchor: of the latest row stored or tombstone left. The anchor of a
    /// duplicate of a row stored by an earlier transaction (skipped by `ON CONFLICT`) is
    /// handed out again by the next transaction if no later row took one; otherwise the
    /// feed has a gap there, as SQLite's `AUTOINCREMENT` leaves one.
    var lastAnchor: Int64
    /// The names this transaction uses: interned, locked and recorded as the user's (``nameIDs(of:)``).
    var interned = InternedNames.Pending()
    var buffered: [Row] = []
    private var maxDurations: [Int32: Double] = [:]
    private var addedByTypeID: [Int32: Int] = [:]
    var deletedByTypeID: [Int32: Int] = [:]

    /// Records added and skipped as duplicates, per family.
    public private(set) var added: [HealthRecord.Family: Int] = [:]
    /// The spans of samples replaced by a writer-given UUID with new content (their days
    /// change too).
    public private(set) var replacedSpans: [DateInterval] = []
    public private(set) var duplicates: [HealthRecord.Family: Int] = [:]
    /// Records that replaced an older reading of the same thing (an activity summary read
    /// from a newer export), per family.
    public private(set) var updated: [HealthRecord.Family: Int] = [:]

    /// Rows per multi-row insert (18 parameters each: PostgreSQL allows 65,535).
    static let rowsPerStatement = 1_000

    /// One `health_sample` row waiting for the next multi-row insert.
    struct Row {
        var sample: Sample
        var key: ContentKey
        var uuid: UUID
        var anchor: Int64
        var ids: (type: Int32, source: Int32, device: Int32?)
        var details: String?
        /// The family to count it in; `nil` for a correlation's member.
        var family: HealthRecord.Family?
        /// An export's workout's routes, when one has points: given to a stored copy stored
        /// without them (``attachRoutePoints(_:)``).
        var routes: [WorkoutRoute]?
    }

    /// What the store knows of the writer-given UUIDs of the records being written.
    struct Identities {
        /// Type ids of stored samples by UUID (updated as rows are written and replaced).
        var stored: [UUID: Int32] = [:]
        /// Type ids of deleted samples by UUID.
        var deleted: [UUID: Int32] = [:]
        /// Content keys stored already, of the records with given UUIDs, and of every row
        /// buffered: a second record with the same content in one transaction is a
        /// duplicate caught here, before it takes an anchor.
        var keys: Set<ContentKey> = []
        /// The UUID of the row holding each of `keys`: a writer-given UUID's sample with the
        /// content of another given UUID's row is another sample (``ContentKey/distinguished(by:)``).
        var holders: [ContentKey: UUID] = [:]
    }

    var identities = Identities()

    /// Locks the user's row (creating it) and reads the last anchor: from here until the
    /// commit no other transaction writes this user's samples. When owners are required
    /// (``PostgresHealthDatabase/requireOwners(in:)``), first locks the user's owner row, or
    /// throws ``HealthStoreOwnerGone``.
    init(connection: PostgresConnection, database: PostgresHealthDatabase, userID: String) async throws {
        self.connection = connection
        self.database = database
        self.userID = userID
        let anchor = try await database.lockOwnerAndStore(connection, userID: userID)
        nextAnchor = anchor + 1
        lastAnchor = anchor
    }

    /// Runs `query` in this writer's transaction (a statement of the caller's that must
    /// commit or roll back with the write); returns how many rows it returned.
    package func execute(_ query: PostgresQuery) async throws -> Int {
        try await connection.query(query, logger: logger).collect().count
    }

    /// Samples added per type identifier (correlation members and workouts included).
    public var addedByType: [String: Int] {
        let names = typeNames
        return Dictionary(uniqueKeysWithValues: addedByTypeID.map { (names[$0.key] ?? "", $0.value) })
    }

    private var typeNames: [Int32: String] {
        var names: [Int32: String] = [:]
        for (identifier, id) in interned.types { names[id] = identifier }
        for id in Set(addedByTypeID.keys).union(deletedByTypeID.keys) where names[id] == nil {
            names[id] = database.names.cachedType(id)?.identifier
        }
        return names
    }

    /// The types added to or deleted from in this transaction.
    var changedTypes: Set<SampleType> {
        let names = typeNames
        return Set(Set(addedByTypeID.keys).union(deletedByTypeID.keys).compactMap { names[$0].map(SampleType.init) })
    }

    /// Writes `records` in order (buffered plain samples are written by the next statement
    /// that needs them, at the latest by the commit).
    public func write(_ records: [HealthRecord]) async throws {
        try await write(records, keys: records.map(\.contentKey))
    }

    /// Writes `records` whose content keys are `keys` (computed by the caller, on another
    /// thread for an import).
    public func write(_ records: [HealthRecord], keys: [ContentKey]) async throws {
        try await useNames(of: Self.samples(in: records))
        try await learnIdentities(of: records, keys: keys)
        for (record, key) in zip(records, keys) {
            switch record {
            case .sample(let sample):
                try await buffer(sample, key: key, details: nil, family: .sample)
            case .workout(let workout):
                try await buffer(
                    workout.header, key: key, details: try WorkoutDetails(workout).json(), family: .workout,
                    routes: workout.givenUUID == nil && workout.routes.contains { !$0.points.isEmpty } ? workout.routes : nil)
            case .audiogram(let audiogram):
                try await buffer(
                    audiogram.sample, key: key, details: try JSONText.encode(audiogram.points),
                    family: .audiogram)
            case .correlation(let correlation):
                try await writeCorrelation(correlation, key: key)
            case .activitySummary(let summary):
                try await writeSummary(summary)
            case .clinicalRecord(let clinical):
                try await writeRecord(
                    .clinicalRecord, key: key, received: clinical.receivedDate, body: try JSONText.encode(clinical))
            case .electrocardiogram(let ecg):
                try await writeRecord(
                    .electrocardiogram, key: key, received: ecg.recordedDate, body: try JSONText.encode(ecg))
            case .other(let element):
                try await writeRecord(.other, key: key, received: nil, body: try JSONText.encode(element))
            }
        }
    }

    /// Buffers one sample row, applying the rules of writer-given UUIDs first. Returns
    /// its anchor, or `nil` when it is known to be a duplicate already.
    @discardableResult
    private func buffer(
        _ sample: Sample, key: ContentKey, details: String?, family: HealthRecord.Family?, routes: [WorkoutRoute]? = nil
    ) async throws
        -> Int64?
    {
        let ids = try await nameIDs(of: sample)
        var key = key
        // A given UUID derived from this very content (a feed's sample sent back) names the
        // content, not a writer's sample: with the content held, it is a duplicate.
        if identities.keys.contains(key), let given = sample.givenUUID, let holder = identities.holders[key],
            holder != given, holder != key.uuid, given != key.uuid
        {
            // The same content under another writer-given UUID is another sample (two glasses
            // of water in one minute): stored under a key of its own, never merged. The same
            // UUID again, or a row an export wrote (its UUID derived), is a duplicate.
            key = key.distinguished(by: given)
        }
        if identities.keys.contains(key) {
            if let family { duplicates[family, default: 0] += 1 }
            return nil
        }
        if let given = sample.givenUUID {
            if let stored = identities.stored[given] {
                guard stored == ids.type else { throw SampleIdentityError(uuid: given, type: sample.type) }
                try await flush()
                var replaced = DeletionReport()
                try await deleteSample(uuid: given, into: &replaced)
                replacedSpans += replaced.intervals
            } else if let deleted = identities.deleted[given], deleted != ids.type {
                throw SampleIdentityError(uuid: given, type: sample.type)
            }
            identities.stored[given] = ids.type
        }
        identities.keys.insert(key)
        identities.holders[key] = sample.givenUUID ?? key.uuid
        let anchor = nextAnchor
        nextAnchor += 1
        buffered.append(
            Row(
                sample: sample, key: key, uuid: sample.givenUUID ?? key.uuid, anchor: anchor, ids: ids, details: details,
                family: family, routes: routes))
        if buffered.count >= Self.rowsPerStatement { try await flush() }
        return anchor
    }

    /// Writes the buffered rows now; counts each as added or as a duplicate (read
    /// ``added`` and ``duplicates`` after it).
    public func flush() async throws {
        guard !buffered.isEmpty else { return }
        let rows = buffered
        buffered.removeAll(keepingCapacity: true)
        var sql = SQLBuilder(
            """
            INSERT INTO health_sample (user_id, uuid, anchor, content_key, type_id, start, "end", utc_offset, time_zone,
                value, value_text, unit, source_id, device_id, creation_date, metadata, beats, details) VALUES 
            """, capacity: rows.count * 17 + 1)
        let user = sql.parameter(userID)
        for (index, row) in rows.enumerated() {
            let columns = SampleValueColumns(row.sample)
            sql.append(index == 0 ? "(\(user)," : ",(\(user),")
            sql.bind(row.uuid)
            sql.append(",")
            sql.bind(row.anchor)
            sql.append(",")
            sql.bind(row.key.storedUUID)
            sql.append(",")
            sql.bind(row.ids.type)
            sql.append(",")
            sql.bind(columns.start)
            sql.append(",")
            sql.bind(columns.end)
            sql.append(",")
            sql.bind(columns.utcOffset)
            sql.append(",")
            sql.bind(columns.timeZone)
            sql.append(",")
            sql.bind(columns.value)
            sql.append(",")
            sql.bind(columns.text)
            sql.append(",")
            sql.bind(columns.unit)
            sql.append(",")
            sql.bind(row.ids.source)
            sql.append(",")
            sql.bind(row.ids.device)
            sql.append(",")
            sql.bind(columns.created)
            sql.append(",")
            sql.bind(columns.metadata)
            sql.append("::jsonb,")
            sql.bind(columns.beats)
            sql.append("::jsonb,")
            sql.bind(row.details)
            sql.append("::jsonb)")
        }
        sql.append(" ON CONFLICT DO NOTHING RETURNING anchor")
        var inserted = Set<Int64>()
        inserted.reserveCapacity(rows.count)
        for try await anchor in try await connection.query(sql.query, logger: logger).decode(Int64.self) {
            inserted.insert(anchor)
        }
        let attached = try await attachRoutePoints(
            rows.compactMap { row in
                guard !inserted.contains(row.anchor), let routes = row.routes else { return nil }
                return (row.key, routes)
            })
        for row in rows {
            if inserted.contains(row.anchor) {
                lastAnchor = max(lastAnchor, row.anchor)
                if let family = row.family { added[family, default: 0] += 1 }
                addedByTypeID[row.ids.type, default: 0] += 1
                // Every stored type gets its row (instants too: `storedSpan` walks them).
                let duration = max(0, row.sample.end.timeIntervalSince(row.sample.start))
                maxDurations[row.ids.type] = max(maxDurations[row.ids.type] ?? 0, duration)
            } else if let family = row.family {
                if row.routes != nil, attached.contains(row.key.storedUUID) {
                    updated[family, default: 0] += 1
                } else {
                    duplicates[family, default: 0] += 1
                }
            }
        }
    }

    /// A correlation and its members; each member is linked whether it was new or stored.
    private func writeCorrelation(_ correlation: Correlation, key: ContentKey) async throws {
        let before = added[.correlation, default: 0]
        guard let anchor = try await buffer(correlation.header, key: key, details: nil, family: .correlation) else { return }
        try await flush()
        guard added[.correlation, default: 0] > before else { return }
        let uuid = correlation.givenUUID ?? key.uuid
        _ = anchor
        var memberKeys: [UUID] = []
        for object in correlation.objects {
            let memberKey = object.contentKey
            try await buffer(object, key: memberKey, details: nil, family: nil)
            memberKeys.append(memberKey.storedUUID)
        }
        try await flush()
        try await connection.query(
            """
            INSERT INTO health_correlation_member (user_id, correlation, member)
            SELECT \(userID), \(uuid), s.uuid FROM health_sample s
            WHERE s.user_id = \(userID) AND s.content_key = ANY(\(memberKeys))
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// A day's rings: a day stored already is replaced only by a reading at least as recent
    /// (`asOf`) whose figures differ, as in SQLite.
    private func writeSummary(_ summary: ActivitySummary) async throws {
        let asOf = summary.asOf?.timeIntervalSince1970
        let query: PostgresQuery = """
            INSERT INTO health_activity_summary AS a (user_id, date, active_energy_burned, active_energy_burned_goal,
                active_energy_burned_unit, apple_move_time, apple_move_time_goal, apple_exercise_time,
                apple_exercise_time_goal, apple_stand_hours, apple_stand_hours_goal, as_of)
            VALUES (\(userID), \(summary.dateComponents), \(summary.activeEnergyBurned), \(summary.activeEnergyBurnedGoal),
                \(summary.activeEnergyBurnedUnit), \(summary.appleMoveTime), \(summary.appleMoveTimeGoal),
                \(summary.appleExerciseTime), \(summary.appleExerciseTimeGoal), \(summary.appleStandHours),
                \(summary.appleStandHoursGoal), \(asOf))
            ON CONFLICT (user_id, date) DO UPDATE SET (active_energy_burned, active_energy_burned_goal,
                active_energy_burned_unit, apple_move_time, apple_move_time_goal, apple_exercise_time,
                apple_exercise_time_goal, apple_stand_hours, apple_stand_hours_goal, as_of) =
                (EXCLUDED.active_energy_burned, EXCLUDED.active_energy_burned_goal, EXCLUDED.active_energy_burned_unit,
                EXCLUDED.apple_move_time, EXCLUDED.apple_move_time_goal, EXCLUDED.apple_exercise_time,
                EXCLUDED.apple_exercise_time_goal, EXCLUDED.apple_stand_hours, EXCLUDED.apple_stand_hours_goal,
                EXCLUDED.as_of)
            WHERE coalesce(EXCLUDED.as_of, -1e300) >= coalesce(a.as_of, -1e300)
                AND (a.active_energy_burned, a.active_energy_burned_goal, a.active_energy_burned_unit, a.apple_move_time,
                    a.apple_move_time_goal, a.apple_exercise_time, a.apple_exercise_time_goal, a.apple_stand_hours,
                    a.apple_stand_hours_goal)
                IS DISTINCT FROM (EXCLUDED.active_energy_burned, EXCLUDED.active_energy_burned_goal,
                    EXCLUDED.active_energy_burned_unit, EXCLUDED.apple_move_time, EXCLUDED.apple_move_time_goal,
                    EXCLUDED.apple_exercise_time, EXCLUDED.apple_exercise_time_goal, EXCLUDED.apple_stand_hours,
                    EXCLUDED.apple_stand_hours_goal)
            RETURNING (xmax = 0)
            """
        var result: Bool?
        for try await inserted in try await connection.query(query, logger: logger).decode(Bool.self) { result = inserted }
        switch result {
        case true: added[.activitySummary, default: 0] += 1
        case false: updated[.activitySummary, default: 0] += 1
        case nil: duplicates[.activitySummary, default: 0] += 1
        }
    }

    /// A clinical record, an ECG or an element kept as read, stored once by content key.
    func writeRecord(_ family: HealthRecord.Family, key: ContentKey, received: Date?, body: String) async throws {
        var isNew = false
        for try await _ in try await connection.query(
            """
            INSERT INTO health_record (user_id, content_key, family, received, body)
            VALUES (\(userID), \(key.storedUUID), \(family.rawValue), \(received?.timeIntervalSince1970), \(body)::jsonb)
            ON CONFLICT DO NOTHING RETURNING 1
            """, logger: logger)
        {
            isNew = true
        }
        if isNew { added[family, default: 0] += 1 } else { duplicates[family, default: 0] += 1 }
    }

    /// Writes what is buffered, then each type's longest duration, the user's last anchor
    /// and the `NOTIFY` that observers hear once the transaction commits, in one statement.
    func finish() async throws {
        try await flush()
        let typeIDs = maxDurations.keys.sorted()
        let durations = typeIDs.map { maxDurations[$0]! }
        maxDurations = [:]
        let last = lastAnchor
        let types = changedTypes
        let payload =
            types.isEmpty ? nil : "\(userID) \(last) " + types.map(\.identifier).sorted().joined(separator: ",")
        // Data-modifying CTEs run once whether or not the query reads them.
        try await connection.query(
            """
            WITH spans AS (
                INSERT INTO health_type_span (user_id, type_id, max_duration)
                SELECT \(userID), s.type_id, s.duration FROM unnest(\(typeIDs)::integer[], \(durations)::float8[])
                    AS s(type_id, duration) ORDER BY s.type_id
                ON CONFLICT (user_id, type_id) DO UPDATE
                SET max_duration = greatest(health_type_span.max_duration, EXCLUDED.max_duration)
            ), store AS (
                UPDATE health_store SET last_anchor = \(last) WHERE user_id = \(userID)
            )
            SELECT pg_notify(\(PostgresHealthDatabase.notificationChannel), \(payload)::text) WHERE \(payload)::text IS NOT NULL
            """, logger: logger)
    }
}
