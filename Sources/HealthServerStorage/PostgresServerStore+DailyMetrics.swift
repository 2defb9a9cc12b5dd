import Foundation
import HealthMetrics
import HealthServerRecords
import HealthWire
import PostgresNIO

/// Daily metrics in PostgreSQL: one multi-row upsert per batch, reads collected then decoded.
extension PostgresServerStore {
    public func upsert(_ days: [NormalizedDailyMetrics], userID: String) async throws -> UpsertCounts {
        let encoder = NormalizedDailyMetrics.backendEncoder()
        // One order for every writer, so two overlapping batches cannot deadlock; a day
        // given twice keeps its order (the later copy wins).
        let rows = try days.enumerated().map { (try DailyMetricsColumns($0.element, encoder: encoder), $0.offset) }
            .sorted { ($0.0.localDate, $0.0.normalizationVersion, $0.1) < ($1.0.localDate, $1.0.normalizationVersion, $1.1) }
            .map(\.0)
        let now = Date().timeIntervalSince1970
        return try await client.withTransaction(logger: logger) { connection in
            var counts = UpsertCounts()
            for chunk in Self.statementChunks(rows) {
                // Each row is inserted (xmax = 0), updated, or — when every value but
                // created_at is the same — left alone and not returned at all.
                var inserted = 0
                var returned = 0
                for row in try await connection.query(Self.upsertQuery(chunk, userID: userID, now: now), logger: logger)
                    .collect()
                {
                    returned += 1
                    if try row.decode(Bool.self) { inserted += 1 }
                }
                counts.inserted += inserted
                counts.updated += returned - inserted
                counts.unchanged += chunk.count - returned
            }
            return counts
        }
    }

    /// Runs of rows one statement can carry: at most 1,000 (16 parameters each: the key, the columns, updated_at), and no key
    /// twice (`ON CONFLICT` cannot touch a row twice in one statement).
    static func statementChunks(_ rows: [DailyMetricsColumns]) -> [ArraySlice<DailyMetricsColumns>] {
        var chunks: [ArraySlice<DailyMetricsColumns>] = []
        var start = rows.startIndex
        var keys = Set<String>()
        for index in rows.indices {
            let key = rows[index].localDate + "|" + rows[index].normalizationVersion
            if index - start == 1000 || keys.contains(key) {
                chunks.append(rows[start..<index])
                start = index
                keys = []
            }
            keys.insert(key)
        }
        if start < rows.endIndex { chunks.append(rows[start...]) }
        return chunks
    }

    /// One multi-row `INSERT … ON CONFLICT DO UPDATE … WHERE (values) IS DISTINCT FROM …`.
    static func upsertQuery(_ rows: ArraySlice<DailyMetricsColumns>, userID: String, now: Double) -> PostgresQuery {
        let width = DailyMetricsColumns.columns.count + 4
        var bindings = PostgresBindings(capacity: rows.count * width)
        var tuples: [String] = []
        for day in rows {
            let first = bindings.count + 1
            tuples.append("(" + (first..<first + width).map { "$\($0)" }.joined(separator: ",") + ")")
            bindings.append(userID)
            bindings.append(day.localDate)
            bindings.append(day.normalizationVersion)
            for value in day.values {
                switch value {
                case .integer(let number): bindings.append(number)
                case .real(let number): bindings.append(number)
                case .text(let text): bindings.append(text)
                }
            }
            bindings.append(now)
        }
        let names = DailyMetricsColumns.columns.map(\.name)
        let compared = names.dropLast()  // created_at aside
        let updated = names + ["updated_at"]
        let sql = """
            INSERT INTO daily_metrics (user_id, local_date, normalization_version, \(DailyMetricsColumns.columnList), updated_at)
            VALUES \(tuples.joined(separator: ","))
            ON CONFLICT (user_id, local_date, normalization_version) DO UPDATE SET
                \(updated.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", "))
            WHERE (\(compared.map { "daily_metrics.\($0)" }.joined(separator: ", ")))
                IS DISTINCT FROM (\(compared.map { "EXCLUDED.\($0)" }.joined(separator: ", ")))
            RETURNING (xmax = 0)
            """
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    public func dailyMetrics(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws
        -> [NormalizedDailyMetrics]
    {
        let decoder = NormalizedDailyMetrics.backendDecoder()
        // Collected first: decoding a buffered row is cheaper than awaiting each one.
        let range = PreparedReads.DayRange(userID, first, last, version)
        return try await client.rows(PreparedReads.Days(range: range), logger: logger).map { row in
            try Self.day(row.makeRandomAccess(), userID: userID, version: version, decoder: decoder)
        }
    }

    /// The day in a row of ``PreparedReads/Days``'s columns (`local_date`, then the values).
    static func day(
        _ cells: PostgresRandomAccessRow, userID: String, version: NormalizationVersion, decoder: JSONDecoder
    ) throws -> NormalizedDailyMetrics {
        let values = try DailyMetricsColumns.columns.enumerated().map { index, column -> DailyColumnValue in
            switch column.kind {
            case .integer: .integer(try cells[index + 1].decode(Int?.self))
            case .real: .real(try cells[index + 1].decode(Double?.self))
            case .text: .text(try cells[index + 1].decode(String?.self))
            }
        }
        return try DailyMetricsColumns(
            localDate: try cells[0].decode(String.self), normalizationVersion: version.rawValue, values: values
        ).metrics(userID: userID, decoder: decoder)
    }

    /// The figures only, the two facts of the metadata that count read from its JSON by
    /// PostgreSQL (``PreparedReads/Figures``): no day's metadata is decoded here.
    public func dailyFigures(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws -> [DailyFigures] {
        let range = PreparedReads.DayRange(userID, first, last, version)
        return try await client.rows(PreparedReads.Figures(range: range), logger: logger).map(Self.figures)
    }

    /// The figures of a row of ``PreparedReads/Figures``'s columns.
    static func figures(_ row: PreparedReads.Figures.Row) throws -> DailyFigures {
        let (date, steps, suspicious, energy, sleep, inBed, restingHR, hrv) = row
        guard let day = LocalDate(date) else { throw StoredDayError(column: "local_date") }
        return DailyFigures(
            date: day, stepsNormalized: steps, stepsSuspicious: suspicious == true, activeEnergyKcal: energy,
            sleepHours: sleep, inBedOnlyHours: inBed, restingHRBpm: restingHR, hrvMs: hrv)
    }

    public func deleteDays(
        userID: String, version: NormalizationVersion, overlapping interval: DateInterval,
        outside dates: ClosedRange<LocalDate>
    ) async throws -> Int {
        let (start, end) = (interval.start.timeIntervalSince1970, interval.end.timeIntervalSince1970)
        let (first, last) = (dates.lowerBound.description, dates.upperBound.description)
        let rows = try await client.query(
            """
            DELETE FROM daily_metrics WHERE user_id = \(userID) AND normalization_version = \(version.rawValue)
            AND utc_day_start < \(end) AND utc_day_end > \(start) AND (local_date < \(first) OR local_date > \(last))
            RETURNING 1
            """, logger: logger)
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    public func dailyRowCounts() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let rows = try await client.query("SELECT user_id, COUNT(*) FROM daily_metrics GROUP BY user_id", logger: logger)
        for try await (user, count) in rows.decode((String, Int).self) { counts[user] = count }
        return counts
    }

    public func ping() async throws {
        try await client.query("SELECT 1", logger: logger)
    }
}
