import Foundation
import HealthCore
import PostgresNIO

/// Writes, deletions and observation: each write one transaction that first locks the
/// user's `health_store` row.
extension PostgresHealthStore: MutableHealthStore {
    /// How many times ``write(_:)`` tries a transaction that PostgreSQL ended for contention.
    public static let writeAttempts = 4

    /// Runs `body` in one transaction with a ``PostgresRecordWriter``: either everything it
    /// wrote is committed, or (when it throws) nothing is. Observers hear of the commit in
    /// every process listening to the database. A transaction that PostgreSQL ends for a
    /// deadlock or a serialization failure is run again, `body` included, up to
    /// ``writeAttempts`` times: `body` must only write through the writer (or else use
    /// ``write(attempts:_:)`` with 1).
    public func write<T: Sendable>(_ body: (PostgresRecordWriter) async throws -> T) async throws -> T {
        try await write(attempts: Self.writeAttempts, body)
    }

    /// ``write(_:)`` tried at most `attempts` times, after a short random wait each time
    /// (issue 32, P1): a deadlock (`40P01`) or a serialization failure (`40001`) that
    /// persists is thrown as ``StoreBusyError`` (the server's 503), never as itself.
    public func write<T: Sendable>(
        attempts: Int, _ body: (PostgresRecordWriter) async throws -> T
    ) async throws -> T {
        let (database, userID) = (database, userID)
        var attempt = 1
        while true {
            do {
                return try await database.client.withTransaction(logger: database.logger) { connection in
                    let writer = try await PostgresRecordWriter(connection: connection, database: database, userID: userID)
                    let result = try await body(writer)
                    try await writer.finish()
                    return result
                }
            } catch {
                // The caller's error (a refused UUID, a bad record) as it was thrown.
                let cause: any Error
                if let failed = error as? PostgresTransactionError {
                    cause = failed.closureError ?? failed.beginError ?? failed.commitError ?? failed
                } else {
                    cause = error
                }
                guard StoreBusyError.isContention(cause) else { throw cause }
                guard attempt < attempts else {
                    database.logger.warning(
                        "health write: contention on every try", metadata: ["attempts": "\(attempts)"])
                    throw StoreBusyError()
                }
                try await Task.sleep(for: StoreBusyError.backoff(after: attempt))
                attempt += 1
            }
        }
    }

    @discardableResult
    public func add(_ samples: [Sample]) async throws -> Int {
        try await write { writer in
            try await writer.write(samples.map(HealthRecord.sample))
            try await writer.flush()
            return writer.added[.sample] ?? 0
        }
    }

    public func delete(uuids: [UUID]) async throws -> DeletionReport {
        try await write { writer in try await writer.delete(uuids: uuids) }
    }

    public func delete(_ type: SampleType, overlapping interval: DateInterval, source: String?) async throws -> DeletionReport {
        try await write { writer in try await writer.delete(type, overlapping: interval, source: source) }
    }

    public func observe(_ types: Set<SampleType>?) -> ChangeNotices {
        database.observe(userID: userID, types: types)
    }
}

extension PostgresHealthStore {
    public func workoutRoutes(overlapping interval: DateInterval, maxPoints: Int) async throws -> [UUID: [RoutePoint]] {
        var sql = SQLBuilder("SELECT s.uuid, s.details::text FROM health_sample s WHERE ")
        appendOverlapping(.workout, interval, to: &sql)
        sql.append(" AND s.details IS NOT NULL")
        var routes: [UUID: [RoutePoint]] = [:]
        for try await (uuid, json) in try await database.client.query(sql.query, logger: database.logger)
            .decode((UUID, String).self)
        {
            let points = try JSONText.decode(WorkoutDetails.self, from: json).routes.flatMap(\.points)
            if !points.isEmpty { routes[uuid] = points.thinned(to: maxPoints) }
        }
        return routes
    }

    public func workoutTotals(overlapping interval: DateInterval) async throws -> [UUID: WorkoutTotals] {
        // The details without their routes, events and kept elements: the totals and statistics only.
        var sql = SQLBuilder(
            "SELECT s.uuid, (s.details - 'routes'::text - 'events'::text - 'extras'::text)::text FROM health_sample s WHERE ")
        appendOverlapping(.workout, interval, to: &sql)
        sql.append(" AND s.details IS NOT NULL")
        var totals: [UUID: WorkoutTotals] = [:]
        for try await (uuid, json) in try await database.client.query(sql.query, logger: database.logger)
            .decode((UUID, String).self)
        {
            let recorded = try JSONText.decode(WorkoutTotals.self, from: json)
            if !recorded.isEmpty { totals[uuid] = recorded }
        }
        return totals
    }

    public func workouts(overlapping interval: DateInterval) async throws -> [Workout] {
        let headers = try await fetch(.workout, overlapping: interval, order: "s.start, s.anchor").map(\.sample)
        guard !headers.isEmpty else { return [] }
        var sql = SQLBuilder("SELECT s.uuid, (s.details - 'routes'::text)::text FROM health_sample s WHERE ")
        appendOverlapping(.workout, interval, to: &sql)
        sql.append(" AND s.details IS NOT NULL")
        var details: [UUID: WorkoutDetails] = [:]
        for try await (uuid, json) in try await database.client.query(sql.query, logger: database.logger)
            .decode((UUID, String).self)
        {
            details[uuid] = try JSONText.decode(WorkoutDetails.self, from: json)
        }
        return headers.map { Workout(header: $0, details: details[$0.uuid]) }
    }

    public func workout(_ uuid: UUID) async throws -> Workout? {
        let query: PostgresQuery = """
            SELECT \(unescaped: SampleColumns.select) FROM health_sample s
            WHERE s.user_id = \(userID) AND s.uuid = \(uuid)
                AND s.type_id = (SELECT id FROM health_sample_type WHERE identifier = \(SampleType.workout.identifier))
            """
        guard let header = try await SampleColumns.fetch(query, database: database).first?.sample else { return nil }
        let details: PostgresQuery = """
            SELECT s.details::text FROM health_sample s WHERE s.user_id = \(userID) AND s.uuid = \(uuid)
            """
        // Read apart from the row: a workout deleted in between is none.
        var found: String??
        for try await json in try await database.client.query(details, logger: database.logger).decode(String?.self) {
            found = .some(json)
        }
        guard let json = found else { return nil }
        return Workout(header: header, details: try json.map { try JSONText.decode(WorkoutDetails.self, from: $0) })
    }

    public func activitySummary(on date: String) async throws -> ActivitySummary? {
        let query: PostgresQuery = """
            SELECT active_energy_burned, active_energy_burned_goal, active_energy_burned_unit, apple_move_time,
                apple_move_time_goal, apple_exercise_time, apple_exercise_time_goal, apple_stand_hours, apple_stand_hours_goal
            FROM health_activity_summary WHERE user_id = \(userID) AND date = \(date)
            """
        for try await row in try await database.client.query(query, logger: database.logger).decode(
            (Double?, Double?, String?, Double?, Double?, Double?, Double?, Double?, Double?).self)
        {
            var summary = ActivitySummary(dateComponents: date)
            (
                summary.activeEnergyBurned, summary.activeEnergyBurnedGoal, summary.activeEnergyBurnedUnit,
                summary.appleMoveTime, summary.appleMoveTimeGoal, summary.appleExerciseTime, summary.appleExerciseTimeGoal,
                summary.appleStandHours, summary.appleStandHoursGoal
            ) = row
            return summary
        }
        return nil
    }
}

extension PostgresHealthStore {
    /// One pass over the user's samples, grouped by type and source.
    public func sampleInventory() async throws -> [SampleTypeInventory] {
        let query: PostgresQuery = """
            SELECT t.identifier, src.name, g.n, g.first, g.last FROM (
                SELECT type_id, source_id, count(*) AS n, min(start) AS first, max(start) AS last
                FROM health_sample WHERE user_id = \(userID) GROUP BY type_id, source_id
            ) g JOIN health_sample_type t ON t.id = g.type_id JOIN health_source src ON src.id = g.source_id
            ORDER BY t.identifier, g.n DESC, src.name
            """
        var rows: [(type: String, source: String, count: Int, first: Double, last: Double)] = []
        for try await row in try await database.client.query(query, logger: database.logger).decode(
            (String, String, Int, Double, Double).self)
        {
            rows.append(row)
        }
        return SampleTypeInventory.merging(rows)
    }
}

extension PostgresHealthStore {
    /// The correlations of `type` overlapping `interval`, ordered by start, each with its
    /// member samples in storage order (as ``SQLiteHealthStore/correlations(of:overlapping:)``).
    public func correlations(
        of type: SampleType, overlapping interval: DateInterval
    ) async throws -> [(
        correlation: Sample, members: [Sample]
    )] {
        let correlations = try await fetch(type, overlapping: interval, order: "s.start, s.anchor")
        guard !correlations.isEmpty else { return [] }
        let uuids = correlations.map(\.sample.uuid)
        let query: PostgresQuery = """
            SELECT \(unescaped: SampleColumns.select), c.correlation FROM health_correlation_member c
            JOIN health_sample s ON s.user_id = c.user_id AND s.uuid = c.member
            WHERE c.user_id = \(userID) AND c.correlation = ANY(\(uuids)) ORDER BY s.anchor
            """
        var rows: [SampleColumns.Row] = []
        var owners: [UUID] = []
        for try await row in try await database.client.query(query, logger: database.logger) {
            let (columns, owner) = try SampleColumns.decode(row, extra: UUID.self)
            rows.append(columns)
            owners.append(owner)
        }
        var members: [UUID: [Sample]] = [:]
        for (member, owner) in zip(try await SampleColumns.samples(rows, database: database), owners) {
            members[owner, default: []].append(member.sample)
        }
        return correlations.map { ($0.sample, members[$0.sample.uuid] ?? []) }
    }
}
