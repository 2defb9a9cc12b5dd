import Foundation
import HealthCore
import HealthMetrics

/// The stored days a read of `GET /v1/daily-metrics` or `GET /v1/readiness` answers, read in
/// one statement together with the two facts the read needs first: that the user exists, and
/// that none of their days waits to be computed. Where a store can (PostgreSQL, whose users,
/// days and dirty spans are in one database), this makes a read one round trip instead of
/// three; the answer is as of one snapshot, so the days are never older than the spans seen.
///
/// The server asks it first and falls back on the steps (the user under their lock, the
/// dirty days computed, then ``DailyMetricsRepository``) whenever it answers ``CurrentDays/daysDirty``.
public protocol CurrentDaysReading: Sendable {
    /// The user's days of rules `version` from `first` through `last`, oldest first, when
    /// the user exists and has no dirty span.
    func currentDailyMetrics(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws -> CurrentDays<[NormalizedDailyMetrics]>
    /// The same days' figures (``DailyFigures``), under the same conditions.
    func currentDailyFigures(
        userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
    ) async throws -> CurrentDays<[DailyFigures]>
}

/// What a ``CurrentDaysReading`` found.
public enum CurrentDays<Value: Sendable>: Sendable {
    /// No such user (deleted): the 401 of an unknown token.
    case userGone
    /// Some of the user's days wait to be computed: nothing was read.
    case daysDirty
    /// The days, all computed as of the read.
    case current(Value)
}
