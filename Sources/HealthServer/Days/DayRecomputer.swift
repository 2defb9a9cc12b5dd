import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthServerRecords
import HealthWire
import Logging

/// Computes and stores a person's days from their samples: the one place that does, for
/// every write (ingest, sync, deletion, import), every read of stored days (the API, the
/// dashboard, MCP) and the import queue. Transport-free: it knows repositories and stores,
/// not requests (issue 34 §3/§4).
///
/// Days derived from samples are never left behind their samples (issue 32, H3/P2/P3).
///
/// Every write of samples marks its spans dirty in the transaction that commits them
/// (``HealthWrite/markDirty(zone:)``; an import marks the whole store before it starts).
/// After the commit the write answers and ``DayRecomputeService`` computes the dirty days
/// and clears the spans it computed; a read of the days before that, or after a failure —
/// an error, a crash, a server killed — computes them first. Computations of one person's
/// days run one at a time across every server (``DirtySpanTracking/withDaysLock(_:)``), each
/// reading the store after the previous one stored its days, so the last days stored
/// always include every commit before them.
public struct DayRecomputer: Sendable {
    let repositories: ServerRepositories
    let logger: Logger

    public init(repositories: ServerRepositories, logger: Logger) {
        self.repositories = repositories
        self.logger = logger
    }

    /// Computes and stores the days of every dirty span of the user, then clears those
    /// spans; answers how many days and what the upsert did.
    ///
    /// A span of the whole store (``DirtySpan/everything``) is an import's: while one of
    /// the user's imports is unfinished, only its runner (`forImport`) computes and clears
    /// it — a read during the import would compute the days before its samples commit.
    func computeDirtyDays(
        userID: String, database: any UserHealthStore, forImport: Bool = false
    ) async throws -> (Int, UpsertCounts) {
        try await database.withDaysLock {
            var spans = try await database.dirtySpans()
            if !forImport, spans.contains(where: \.isEverything),
                try await repositories.imports.unfinishedImports().contains(where: { $0.userID == userID })
            {
                spans.removeAll(where: \.isEverything)
            }
            guard !spans.isEmpty else { return (0, UpsertCounts()) }
            // Every day of a person in one zone, their home zone (docs/api.md §Home zone): days
            // of two zones would overlap and count the same samples twice. The first write that
            // named a zone sets it, and the days stored before in another (UTC's, of writes
            // that named none) are computed again in it.
            var home = try await repositories.users.homeZone(userID: userID)
            var everything = spans.contains(where: \.isEverything)
            if home == nil,
                let named = spans.sorted(by: { $0.id < $1.id }).compactMap(\.zone).first(where: {
                    TimeZone(identifier: $0) != nil
                })
            {
                home = try await repositories.users.setHomeZone(named, userID: userID, onlyIfUnset: true)
                if let home { _ = try await repositories.dailyMetrics.deleteDays(userID: userID, version: .v1, notIn: home) }
                everything = true
            }
            let zone = home.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
            var intervals = spans.filter { !$0.isEverything }.map(\.interval)
            if everything, let stored = try await database.storedSpan(), let known = Self.untilTomorrow(stored, now: Date()) {
                intervals.append(known)
            }
            var days = 0
            var counts = UpsertCounts()
            if !intervals.isEmpty {
                (days, counts) = try await recompute(touching: intervals, userID: userID, zone: zone, database: database)
            }
            try await database.clearDirty(ids: spans.map(\.id))
            return (days, counts)
        }
    }

    /// The part of the store's span up to a day after `now`: the days an import recomputes
    /// (at most the latest 3660 of them) end there, so one sample dated 2199 does not turn
    /// them into ten years of empty future days while the person's own are left out; `nil`
    /// when every sample is dated later. A write of such a sample still computes its own day.
    static func untilTomorrow(_ span: DateInterval, now: Date) -> DateInterval? {
        let horizon = now.addingTimeInterval(2 * 86400)
        guard span.start < horizon else { return nil }
        return DateInterval(start: span.start, end: min(span.end, horizon))
    }

    /// Before the person's stored days are read: the days of spans left dirty (a failure or
    /// a crash after a commit) are computed first, so no read answers days behind samples.
    /// When that fails, the days stored are read as they are (and the failure logged):
    /// a read is never refused because a computation is.
    func computeDirtyDaysBeforeReading(userID: String) async throws {
        let database = try await repositories.readableStore(userID)
        guard try await !database.dirtySpans().isEmpty else { return }
        try await computeDaysFoundDirty(userID: userID)
    }

    /// ``computeDirtyDaysBeforeReading(userID:)`` for a read that has just seen the person's
    /// spans dirty (``CurrentDaysReading``): no second look before the computation, which
    /// reads the spans again under the person's lock.
    func computeDaysFoundDirty(userID: String) async throws {
        do {
            _ = try await repositories.writing(userID) { database in
                try await computeDirtyDays(userID: userID, database: database)
            }
        } catch {
            // Deleted meanwhile: the 401 of their token, not their emptied days as a 200.
            if let gone = await repositories.explaining(error, userID: userID) as? Problem, gone.status == .unauthorized {
                throw gone
            }
            logger.error(
                "dirty days not computed before a read; the stored days are served",
                metadata: ["user": "\(userID)", "error.type": "\(type(of: error))"])
        }
    }

    /// Normalises the local days (in `zone`, or the samples' `HKTimeZone`) of each interval,
    /// from its start's through the day after its end's, and the days between two of them
    /// when they are at most 30 days apart — samples two months apart recompute the days
    /// around each, not the months between — at most 3660 days, the latest ones, and
    /// upserts them as `norm_v1`.
    func recompute(
        touching intervals: [DateInterval], userID: String, zone: TimeZone, database: any UserHealthStore
    ) async throws -> (Int, UpsertCounts) {
        let limit = 3660
        var touched = Set<LocalDate>()
        for interval in intervals {
            let last = LocalDate(interval.end, in: zone).adding(days: 1)
            var day = max(LocalDate(interval.start, in: zone), last.adding(days: 1 - limit))
            while day <= last {
                touched.insert(day)
                day = day.adding(days: 1)
            }
        }
        // Runs of days, each normalised at once. A run first reads the 30 days before it
        // (the suspicious-day rule's history), so days up to 30 apart share a run: the
        // days between cost no more than a second run's history would.
        var runs: [ClosedRange<LocalDate>] = []
        for day in touched.sorted().suffix(limit) {
            if let run = runs.last, run.upperBound.adding(days: 31) >= day {
                runs[runs.count - 1] = run.lowerBound...day
            } else {
                runs.append(day...day)
            }
        }
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = zone
        settings.userID = userID
        let normalizer = DailyNormalizer(store: database.queries, configuration: settings, now: { Date() })
        var days: [NormalizedDailyMetrics] = []
        for run in runs { days += try await normalizer.metrics(from: run.lowerBound, through: run.upperBound) }
        // The ranges a posted day must keep hold for computed days too: a figure outside
        // them (a sum of many absurd samples stored before the plausible ranges) is left out.
        let plausible = days.map(DailyMetricsValidation.withoutImplausibleFigures)
        return (days.count, try await repositories.dailyMetrics.upsert(plausible, userID: userID))
    }
}
