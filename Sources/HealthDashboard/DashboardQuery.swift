import Foundation
import HealthCore

/// The query of a dashboard page, as `healthpipe dashboard` reads it and as the server's
/// `/dashboard` takes it: `range` (7, 30, 90 or 365 days; 30 when absent) and `date` (the
/// day the page is about, 1900-01-01 through 2199-12-31; when absent, today or the last day
/// with data — ``DashboardAssembler/assemble(today:)``).
///
/// ```swift
/// let query = try DashboardQuery(range: "7", date: "2024-12-28")   // 7 days to 2024-12-28
/// try DashboardQuery(range: nil, date: "yesterday")                   // DashboardQueryError
/// ```
public struct DashboardQuery: Hashable, Sendable {
    public var range: Int
    public var date: LocalDate?

    /// The days a `date` may name: a day outside has no calendar, no zone, no data.
    public static let dates = LocalDate(year: 1900, month: 1, day: 1)...LocalDate(year: 2199, month: 12, day: 31)

    /// Reads the query's `range` and `date` values; throws ``DashboardQueryError`` (a 400)
    /// saying which is wrong.
    public init(range: String?, date: String?) throws {
        if let range {
            guard let days = Int(range), DashboardAssembler.Settings.ranges.contains(days) else {
                throw DashboardQueryError("range must be one of 7, 30, 90, 365")
            }
            self.range = days
        } else {
            self.range = 30
        }
        if let date {
            guard let day = LocalDate(date), Self.dates.contains(day) else {
                throw DashboardQueryError(
                    "date must be a day YYYY-MM-DD from \(Self.dates.lowerBound) to \(Self.dates.upperBound)")
            }
            self.date = day
        } else {
            self.date = nil
        }
    }
}

/// A dashboard query that cannot be answered: what is wrong, for a 400.
public struct DashboardQueryError: Error, CustomStringConvertible, Hashable {
    public let description: String

    init(_ description: String) { self.description = description }
}
