import Foundation
import HealthMetrics
import HealthPostgres
import HealthServerRecords
import PostgresNIO

/// The statements every read request runs (the token with its user's consent, the user's
/// existence, the days or their figures), prepared once per connection
/// (`PostgresPreparedStatement`): PostgreSQL parses and plans each once per connection, not at
/// every request, and the client sends no text. Each answers the rows; the store decodes them.
enum PreparedReads {
    struct TokenWithConsent: PostgresPreparedStatement {
        static let sql = """
            SELECT \(ServerSchema.userTokenColumns), t.hash, c.granted, c.denied, c.decided_at, c.declined_at
            FROM api_token t JOIN users u ON u.id = t.user_id LEFT JOIN consent c ON c.user_id = u.id
            WHERE t.id = $1
            """
        let tokenID: String

        func makeBindings() throws -> PostgresBindings { PostgresBindings(texts: tokenID) }

        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

    struct UserExists: PostgresPreparedStatement {
        static let sql = "SELECT 1 FROM users WHERE id = $1"
        let userID: String

        func makeBindings() throws -> PostgresBindings { PostgresBindings(texts: userID) }

        func decodeRow(_ row: PostgresRow) throws -> Int32 { try row.decode(Int32.self) }
    }

    /// The user's days of one version between two dates: `local_date`, then the value columns.
    struct Days: PostgresPreparedStatement {
        static let sql = """
            SELECT local_date, \(DailyMetricsColumns.columnList) FROM daily_metrics
            WHERE user_id = $1 AND normalization_version = $2 AND local_date BETWEEN $3 AND $4
            ORDER BY local_date
            """
        let range: DayRange

        func makeBindings() throws -> PostgresBindings { range.bindings }
        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

    /// The same days' figures (``DailyFigures``), the two facts of the metadata taken out of
    /// its JSON by PostgreSQL.
    struct Figures: PostgresPreparedStatement {
        static let sql = """
            SELECT local_date, steps_normalized, (steps_sources_json::json ->> 'suspicious_steps') = 'true',
                active_energy_kcal, sleep_hours,
                CASE WHEN sleep_source_json::json ->> 'basis' = 'in_bed_only'
                THEN (sleep_source_json::json ->> 'in_bed_hours')::float8 + 0 END, resting_hr_bpm, hrv_ms
            FROM daily_metrics
            WHERE user_id = $1 AND normalization_version = $2 AND local_date BETWEEN $3 AND $4
            ORDER BY local_date
            """
        typealias Row = (String, Int?, Bool?, Double?, Double?, Double?, Double?, Double?)
        let range: DayRange

        func makeBindings() throws -> PostgresBindings { range.bindings }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A user's days of one normalisation version from one date through another.
    struct DayRange {
        let userID: String
        let version: String
        let first: String
        let last: String

        var bindings: PostgresBindings { PostgresBindings(texts: userID, version, first, last) }

        /// The days of rules `version` from `first` through `last`.
        init(_ userID: String, _ first: LocalDate, _ last: LocalDate, _ version: NormalizationVersion) {
            (self.userID, self.version) = (userID, version.rawValue)
            (self.first, self.last) = (first.description, last.description)
        }
    }
}
