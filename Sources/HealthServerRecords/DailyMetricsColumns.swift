import Foundation
import HealthMetrics

/// One value of a day's row as both databases bind and read it.
package enum DailyColumnValue: Hashable, Sendable {
    case integer(Int?)
    case real(Double?)
    case text(String?)
}

/// A day as the server's tables hold it: its key (`local_date`, `normalization_version`)
/// and one value per ``columns`` entry — instants as seconds since 1970 (exact in a double),
/// the steps and sleep sources as JSON text. The list of columns is the one place a day's
/// stored fields are named (issue 34 §4): both stores derive their SQL, bindings and
/// row reading from it.
package struct DailyMetricsColumns: Equatable, Sendable {
    /// A stored column after the key: its name, what both databases store in it, and how
    /// it is taken from a day and put back.
    package struct Column: Sendable {
        package enum Kind: Sendable { case integer, real, text }

        package let name: String
        package let kind: Kind
        fileprivate let value: @Sendable (NormalizedDailyMetrics, JSONEncoder) throws -> DailyColumnValue
        fileprivate let restore: @Sendable (inout NormalizedDailyMetrics, DailyColumnValue, JSONDecoder) throws -> Void
    }

    /// The columns after the key, in the order every statement uses. `created_at` is last:
    /// when the day was computed, not part of what it holds.
    package static let columns: [Column] = [
        .text("timezone", \.timezoneIdentifier),
        .instant("utc_day_start", \.utcDayStart),
        .instant("utc_day_end", \.utcDayEnd),
        .integer("steps_normalized", \.stepsNormalized),
        .integer("steps_raw_sum", \.stepsRawSum),
        .json("steps_sources_json", \.stepsSources),
        .real("active_energy_kcal", \.activeEnergyKcal),
        .real("sleep_hours", \.sleepHours),
        .json("sleep_source_json", \.sleepSource),
        .real("resting_hr_bpm", \.restingHRBpm),
        .real("hrv_ms", \.hrvMs),
        .instant("created_at", \.createdAt),
    ]

    /// The names of ``columns``, comma-separated, for a statement.
    package static let columnList = columns.map(\.name).joined(separator: ", ")

    package var localDate: String
    package var normalizationVersion: String
    /// One per ``columns`` entry, in order.
    package var values: [DailyColumnValue]

    package init(_ day: NormalizedDailyMetrics, encoder: JSONEncoder) throws {
        localDate = day.localDate
        normalizationVersion = day.normalizationVersion
        values = try Self.columns.map { try $0.value(day, encoder) }
    }

    /// A row read back: `values` in ``columns`` order.
    package init(localDate: String, normalizationVersion: String, values: [DailyColumnValue]) {
        self.localDate = localDate
        self.normalizationVersion = normalizationVersion
        self.values = values
    }

    /// The same values, `created_at` aside: an upsert that differs only there leaves the row alone.
    package func holdsTheSameValues(as other: DailyMetricsColumns) -> Bool {
        localDate == other.localDate && normalizationVersion == other.normalizationVersion
            && values.dropLast() == other.values.dropLast()
    }

    package func metrics(userID: String, decoder: JSONDecoder) throws -> NormalizedDailyMetrics {
        guard values.count == Self.columns.count else { throw StoredDayError(column: "(\(values.count) columns)") }
        var day = NormalizedDailyMetrics(
            userID: userID, localDate: localDate, timezoneIdentifier: "", utcDayStart: .distantPast,
            utcDayEnd: .distantPast, normalizationVersion: normalizationVersion, createdAt: .distantPast)
        for (column, value) in zip(Self.columns, values) { try column.restore(&day, value, decoder) }
        return day
    }
}

/// A stored day whose column holds what its kind does not allow (a corrupt or foreign row).
package struct StoredDayError: Error, CustomStringConvertible {
    package let column: String
    package init(column: String) { self.column = column }
    package var description: String { "a stored day's \(column) is not what the column holds" }
}

extension DailyMetricsColumns.Column {
    fileprivate typealias Path<T> = WritableKeyPath<NormalizedDailyMetrics, T> & Sendable

    fileprivate static func integer(_ name: String, _ path: Path<Int?>) -> Self {
        .init(name: name, kind: .integer, value: { day, _ in .integer(day[keyPath: path]) }) { day, value, _ in
            guard case .integer(let number) = value else { throw StoredDayError(column: name) }
            day[keyPath: path] = number
        }
    }

    fileprivate static func real(_ name: String, _ path: Path<Double?>) -> Self {
        .init(name: name, kind: .real, value: { day, _ in .real(day[keyPath: path]) }) { day, value, _ in
            guard case .real(let number) = value else { throw StoredDayError(column: name) }
            day[keyPath: path] = number
        }
    }

    fileprivate static func text(_ name: String, _ path: Path<String>) -> Self {
        .init(name: name, kind: .text, value: { day, _ in .text(day[keyPath: path]) }) { day, value, _ in
            guard case .text(let text?) = value else { throw StoredDayError(column: name) }
            day[keyPath: path] = text
        }
    }

    fileprivate static func instant(_ name: String, _ path: Path<Date>) -> Self {
        .init(name: name, kind: .real, value: { day, _ in .real(day[keyPath: path].timeIntervalSince1970) }) {
            day, value, _ in
            guard case .real(let seconds?) = value else { throw StoredDayError(column: name) }
            day[keyPath: path] = Date(timeIntervalSince1970: seconds)
        }
    }

    fileprivate static func json<T: Codable & Sendable>(_ name: String, _ path: Path<T?>) -> Self {
        .init(
            name: name, kind: .text,
            value: { day, encoder in
                .text(try day[keyPath: path].map { String(decoding: try encoder.encode($0), as: UTF8.self) })
            }
        ) { day, value, decoder in
            guard case .text(let text) = value else { throw StoredDayError(column: name) }
            day[keyPath: path] = try text.map { try decoder.decode(T.self, from: Data($0.utf8)) }
        }
    }
}
