import Foundation
import GRDB
import HealthCore
import HealthMetrics
import HealthSQLite
import HealthServerRecords
import HealthWire

/// Daily metrics in `server.sqlite`: one row per (user, local date, normalisation version).
extension SQLiteServerStore {
    /// The columns of a day after its key (``DailyMetricsColumns/columns``).
    fileprivate static let valueColumns = DailyMetricsColumns.columnList
    fileprivate static let valuePlaceholders = DailyMetricsColumns.columns.map { _ in "?" }.joined(separator: ",")

    fileprivate static func values(_ day: DailyMetricsColumns) -> [DatabaseValue] {
        day.values.map { value in
            switch value {
            case .integer(let number): number.databaseValue
            case .real(let number): number.databaseValue
            case .text(let text): text.databaseValue
            }
        }
    }

    /// A row of `SELECT local_date, normalization_version, <valueColumns>`.
    fileprivate static func columns(_ row: Row) -> DailyMetricsColumns {
        DailyMetricsColumns(
            localDate: row[0], normalizationVersion: row[1],
            values: DailyMetricsColumns.columns.enumerated().map { index, column in
                value(row[index + 2], as: column.kind)
            })
    }

    /// A stored value as its column's kind, read from its storage class directly: the
    /// generic `row[i]` decoding looked up Optional's metadata for every value of every row
    /// (a profile of `GET /v1/readiness` under load).
    fileprivate static func value(_ stored: DatabaseValue, as kind: DailyMetricsColumns.Column.Kind) -> DailyColumnValue {
        switch (kind, stored.storage) {
        case (.integer, .int64(let number)): .integer(Int(number))
        case (.integer, .double(let number)): .integer(Int(exactly: number))
        case (.integer, _): .integer(nil)
        case (.real, .double(let number)): .real(number)
        case (.real, .int64(let number)): .real(Double(number))
        case (.real, _): .real(nil)
        case (.text, .string(let text)): .text(text)
        case (.text, .blob(let data)): .text(String(decoding: data, as: UTF8.self))
        case (.text, _): .text(nil)
        }
    }

    public func upsert(_ days: [NormalizedDailyMetrics], userID: String) async throws -> UpsertCounts {
        let encoder = NormalizedDailyMetrics.backendEncoder()
        let rows = try days.map { try DailyMetricsColumns($0, encoder: encoder) }
        return try await pool.write { db in
            var counts = UpsertCounts()
            let now = Date().timeIntervalSince1970
            for day in rows {
                let stored = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT local_date, normalization_version, \(Self.valueColumns) FROM daily_metrics
                        WHERE user_id = ? AND local_date = ? AND normalization_version = ?
                        """, arguments: [userID, day.localDate, day.normalizationVersion]
                ).map(Self.columns)
                if let stored, stored.holdsTheSameValues(as: day) {
                    counts.unchanged += 1
                    continue
                }
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO daily_metrics (user_id, local_date, normalization_version, \(Self.valueColumns),
                        updated_at) VALUES (?,?,?,\(Self.valuePlaceholders),?)
                        """,
                    arguments: StatementArguments(
                        [userID.databaseValue, day.localDate.databaseValue, day.normalizationVersion.databaseValue]
                            + Self.values(day) + [now.databaseValue]))
                if stored == nil { counts.inserted += 1 } else { counts.updated += 1 }
            }
            return counts
        }
    }

    public func dailyMetrics(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws
        -> [NormalizedDailyMetrics]
    {
        let decoder = NormalizedDailyMetrics.backendDecoder()
        return try await pointRead { db in
            // Cached statements on the read paths every request takes: compiling one (and
            // GRDB's authorizer run at each compilation) was a tenth of a read under load.
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT local_date, normalization_version, \(Self.valueColumns) FROM daily_metrics
                        WHERE user_id = ? AND normalization_version = ? AND local_date BETWEEN ? AND ? ORDER BY local_date
                        """), arguments: [userID, version.rawValue, first.description, last.description]
            ).map { try Self.columns($0).metrics(userID: userID, decoder: decoder) }
        }
    }

    /// The figures only, with the two facts of the metadata that count taken out of its JSON
    /// by SQLite: a readiness read spent a third of its time decoding whole days.
    public func dailyFigures(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws -> [DailyFigures] {
        try await pointRead { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT local_date, steps_normalized, json_extract(steps_sources_json, '$.suspicious_steps'),
                    active_energy_kcal, sleep_hours,
                    CASE WHEN json_extract(sleep_source_json, '$.basis') = 'in_bed_only'
                    THEN json_extract(sleep_source_json, '$.in_bed_hours') END, resting_hr_bpm, hrv_ms
                    FROM daily_metrics
                    WHERE user_id = ? AND normalization_version = ? AND local_date BETWEEN ? AND ? ORDER BY local_date
                    """)
            let rows = try Row.fetchCursor(
                statement, arguments: [userID, version.rawValue, first.description, last.description])
            var figures: [DailyFigures] = []
            while let row = try rows.next() {
                guard let date = LocalDate(row[0] as String) else { throw StoredDayError(column: "local_date") }
                func real(_ index: Int) -> Double? { row.hasNull(atIndex: index) ? nil : row[index] as Double }
                figures.append(
                    DailyFigures(
                        date: date, stepsNormalized: row.hasNull(atIndex: 1) ? nil : row[1] as Int,
                        stepsSuspicious: !row.hasNull(atIndex: 2) && row[2] as Bool, activeEnergyKcal: real(3),
                        sleepHours: real(4), inBedOnlyHours: real(5), restingHRBpm: real(6), hrvMs: real(7)))
            }
            return figures
        }
    }

    public func deleteDays(
        userID: String, version: NormalizationVersion, overlapping interval: DateInterval,
        outside dates: ClosedRange<LocalDate>
    ) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: """
                    DELETE FROM daily_metrics WHERE user_id = ? AND normalization_version = ?
                    AND utc_day_start < ? AND utc_day_end > ? AND (local_date < ? OR local_date > ?)
                    """,
                arguments: [
                    userID, version.rawValue, interval.end.timeIntervalSince1970, interval.start.timeIntervalSince1970,
                    dates.lowerBound.description, dates.upperBound.description,
                ])
            return db.changesCount
        }
    }

    public func dailyRowCounts() async throws -> [String: Int] {
        try await pool.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT user_id, COUNT(*) FROM daily_metrics GROUP BY user_id")
                    .map { ($0[0] as String, $0[1] as Int) })
        }
    }
}
