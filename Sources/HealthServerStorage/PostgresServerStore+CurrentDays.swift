import Foundation
import HealthMetrics
import HealthPostgres
import HealthServerRecords
import PostgresNIO

/// A read of days on PostgreSQL in one round trip (issue 37 §3): the user's row, whether any
/// of their spans is dirty and their days, in one prepared statement and so one snapshot.
/// The steps it replaces (`userExists`, the dirty spans, the days) were three.
extension PostgresServerStore {
    /// This store as the server's ``CurrentDaysReading`` when the users' samples are in the
    /// same database (the health tables reached through this store's pool); `nil` otherwise.
    public func currentDaysReader(with healthStores: any UserHealthStores) -> (any CurrentDaysReading)? {
        guard let stores = healthStores as? PostgresUserHealthStores, stores.database.isReached(through: pool) else {
            return nil
        }
        return PostgresCurrentDays(store: self)
    }
}

/// ``CurrentDaysReading`` over ``PreparedReads/CurrentDays`` and ``PreparedReads/CurrentFigures``.
struct PostgresCurrentDays: CurrentDaysReading {
    let store: PostgresServerStore

    func currentDailyMetrics(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws -> CurrentDays<[NormalizedDailyMetrics]> {
        let range = PreparedReads.DayRange(userID, first, last, version)
        let rows = try await store.client.rows(PreparedReads.CurrentDays(range: range), logger: store.logger)
        let decoder = NormalizedDailyMetrics.backendDecoder()
        return try Self.current(rows.map { $0.makeRandomAccess() }) { cells in
            try PostgresServerStore.day(cells, userID: userID, version: version, decoder: decoder)
        }
    }

    func currentDailyFigures(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws -> CurrentDays<[DailyFigures]> {
        let range = PreparedReads.DayRange(userID, first, last, version)
        let rows = try await store.client.rows(PreparedReads.CurrentFigures(range: range), logger: store.logger)
        return try Self.current(rows.map { $0.makeRandomAccess() }) { cells in
            try PostgresServerStore.figures(
                (
                    try cells[0].decode(String.self), try cells[1].decode(Int?.self), try cells[2].decode(Bool?.self),
                    try cells[3].decode(Double?.self), try cells[4].decode(Double?.self),
                    try cells[5].decode(Double?.self), try cells[6].decode(Double?.self),
                    try cells[7].decode(Double?.self)
                ))
        }
    }

    /// No row: the user is gone; `dirty` (the last column, the same in every row) true:
    /// nothing is read; a single row without a date: no day; otherwise a day per row.
    static func current<Value>(
        _ rows: [PostgresRandomAccessRow], _ value: (PostgresRandomAccessRow) throws -> Value
    ) throws -> CurrentDays<[Value]> {
        guard let first = rows.first else { return .userGone }
        guard try !first[first.count - 1].decode(Bool.self) else { return .daysDirty }
        guard try first[0].decode(String?.self) != nil else { return .current([]) }
        return .current(try rows.map(value))
    }
}

extension PreparedReads {
    /// ``Days`` with the user's existence and whether any of their spans is dirty (last column).
    struct CurrentDays: PostgresPreparedStatement {
        static let sql = current(Days.sql)
        let range: DayRange

        func makeBindings() throws -> PostgresBindings { range.bindings }
        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

    /// ``Figures`` with the user's existence and whether any of their spans is dirty (last column).
    struct CurrentFigures: PostgresPreparedStatement {
        static let sql = current(Figures.sql)
        let range: DayRange

        func makeBindings() throws -> PostgresBindings { range.bindings }
        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

    /// `days` (a read of `daily_metrics` whose `$1` is the user's id) for a user who exists:
    /// no row when the user's row is gone, one row with `NULL` columns when there is no day;
    /// `dirty` appended to every row.
    static func current(_ days: String) -> String {
        """
        SELECT d.*, s.dirty FROM users u
        CROSS JOIN (SELECT \(PostgresHealthDatabase.dirtySpansExist(userID: "$1"))) s(dirty)
        LEFT JOIN (\(days)) d ON true
        WHERE u.id = $1
        ORDER BY d.local_date
        """
    }
}
