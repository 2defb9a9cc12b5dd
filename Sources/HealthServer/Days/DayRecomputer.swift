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
            // named a zone sets it, and every day is computed again in it (the days stored
            // before in another — UTC's, of writes that named none — overlapped deleted).
            var home = try await repositories.users.homeZone(userID: userID)
            var everything = spans.contains(where: \.isEverything)
            if home == nil,
                let named = spans.sorted(by: { $0.id < $1.id }).compactMap(\.zone).first(where: {
                    TimeZone(identifier: $0) != nil
                })
            {
                home = try await repositories.users.setHomeZone(named, userID: userID, onlyIfUnset: true)
                everything = true
            }
            let zone = ServerRepositories.dayZone(named: home)
            let intervals = spans.filter { !$0.isEverything }.map(\.interval)
            var days = 0
            var counts = UpsertCounts()
            if !intervals.isEmpty || everything {
                (days, counts) = try await recompute(
                    touching: intervals, everyStoredDay: everything, userID: userID, zone: zone, database: database)
            }
            try await database.clearDirty(ids: spans.map(\.id))
            return (days, counts)
        }
    }

    /// The part of the store's span up to a day after `now`: the days an import recomputes
    /// end there, so one sample dated 2199 does not turn them into years of empty future
    /// days; `nil` when every sample is dated later. A write of such a sample still computes
    /// its own day.
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
    /// around each, not the months between — at most the latest 3660 days of each interval
    /// (a write's own days whatever else is computed with them: a span of ten years and
    /// more no longer pushed them out), and upserts them as `norm_v1`. With
    /// `everyStoredDay` (an import, a new home zone) every day of every year with samples
    /// from the first sample's through tomorrow is computed too, however long ago the first
    /// was (``yearsWithSamples(_:zone:store:)``): a person's twelve years since the first
    /// iPhone are theirs whole, all in one zone. Where the person was away from `zone` near the intervals
    /// (``widenedForZones(_:zone:userID:normalizer:)``), each is widened to the days a trip's
    /// zone moves. A stored day beside a run that does not meet it is computed with it
    /// (``grownToMeet(_:from:to:userID:)``); stored days of other dates the new ones still
    /// overlap are deleted.
    func recompute(
        touching intervals: [DateInterval], everyStoredDay: Bool = false, userID: String, zone: TimeZone,
        database: any UserHealthStore
    ) async throws -> (Int, UpsertCounts) {
        let limit = 3660
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = zone
        settings.userID = userID
        let normalizer = DailyNormalizer(store: database.queries, configuration: settings, now: { Date() })
        // Widened no further than a day beside the stored samples: no empty days made before
        // the first or after tomorrow.
        let samples = try await database.storedSpan().flatMap { Self.untilTomorrow($0, now: Date()) }.map {
            LocalDate($0.start, in: zone)...LocalDate($0.end, in: zone)
        }
        let stored = samples.map { $0.lowerBound.adding(days: -1)...$0.upperBound.adding(days: 1) }
        let asked = intervals.map { LocalDate($0.start, in: zone)...LocalDate($0.end, in: zone).adding(days: 1) }
        // An import's or a zone change's years with samples (none in an empty store); `nil`
        // for the days of writes alone.
        var whole: [ClosedRange<LocalDate>]?
        if everyStoredDay {
            whole = []
            if let samples {
                whole = try await Self.yearsWithSamples(
                    samples.lowerBound...samples.upperBound.adding(days: 1), zone: zone, store: database.queries)
            }
        }
        // Every stored day computed (an import's, a zone change's) needs no widening.
        let covered = samples.map { span in asked.contains { $0.contains(span.lowerBound) && $0.contains(span.upperBound) } }
        let ranges =
            whole != nil || covered == true
            ? asked
            : try await widenedForZones(asked, zone: zone, userID: userID, normalizer: normalizer).map { widened, asked in
                guard let stored else { return asked }
                return max(
                    widened.lowerBound, min(asked.lowerBound, stored.lowerBound))...min(
                        widened.upperBound, max(asked.upperBound, stored.upperBound))
            }
        var touched = Set<LocalDate>()
        for (range, limited) in ranges.map({ ($0, true) }) + (whole ?? []).map({ ($0, false) }) {
            var day = limited ? max(range.lowerBound, range.upperBound.adding(days: 1 - limit)) : range.lowerBound
            while day <= range.upperBound {
                touched.insert(day)
                day = day.adding(days: 1)
            }
        }
        // Runs of days, each normalised at once. A run first reads the 30 days before it
        // (the suspicious-day rule's history), so days up to 30 apart share a run: the
        // days between cost no more than a second run's history would.
        var runs: [ClosedRange<LocalDate>] = []
        for day in touched.sorted() {
            if let run = runs.last, run.upperBound.adding(days: 31) >= day {
                runs[runs.count - 1] = run.lowerBound...day
            } else {
                runs.append(day...day)
            }
        }
        var days: [NormalizedDailyMetrics] = []
        var spans: [(DateInterval, ClosedRange<LocalDate>)] = []
        for asked in runs {
            var run = asked
            var computed = try await normalizer.metrics(from: run.lowerBound, through: run.upperBound)
            // A stored day beside the run that does not meet it (of another zone: an old home
            // zone's, a trip's) is computed with it, so that the days tile; deleting it would
            // leave its instants outside the run on no day.
            for _ in 0..<4 {
                guard let first = computed.first, let last = computed.last,
                    let grown = try await grownToMeet(run, from: first.utcDayStart, to: last.utcDayEnd, userID: userID),
                    grown != run
                else { break }
                run = grown
                computed = try await normalizer.metrics(from: run.lowerBound, through: run.upperBound)
            }
            if let first = computed.first, let last = computed.last, first.utcDayStart < last.utcDayEnd {
                spans.append((DateInterval(start: first.utcDayStart, end: last.utcDayEnd), run))
            }
            days += computed
        }
        // The ranges a posted day must keep hold for computed days too: a figure outside
        // them (a sum of many absurd samples stored before the plausible ranges) is left out.
        let plausible = days.map(DailyMetricsValidation.withoutImplausibleFigures)
        let counts = try await repositories.dailyMetrics.upsert(plausible, userID: userID)
        for (interval, dates) in spans {
            _ = try await repositories.dailyMetrics.deleteDays(
                userID: userID, version: .v1, overlapping: interval, outside: dates)
        }
        return (days.count, counts)
    }

    /// The types a day's figures are computed from.
    static let dayTypes: [SampleType] = [
        .stepCount, .activeEnergyBurned, .sleepAnalysis, .restingHeartRate, .heartRateVariabilitySDNN,
    ]

    /// The years of `span` (in `zone`) in which a sample of ``dayTypes`` ends, each widened by
    /// a day at both ends: every day of them is computed, the years between are not. One
    /// sample dated 1900 (a device's reset clock) made an import compute 46,000 empty days,
    /// 4 s the read after it waited for.
    static func yearsWithSamples(
        _ span: ClosedRange<LocalDate>, zone: TimeZone, store: any HealthQuerying
    ) async throws -> [ClosedRange<LocalDate>] {
        var years: [ClosedRange<LocalDate>] = []
        var first = span.lowerBound
        while first <= span.upperBound {
            let last = min(span.upperBound, first.adding(days: 365))
            let (start, end) = (first.instant(hour: 0, in: zone), last.adding(days: 1).instant(hour: 0, in: zone))
            for type in dayTypes {
                // The latest to end by the year's end: one that ends in the year is there.
                guard let sample = try await store.latestSample(of: type, endingBy: end), sample.end >= start else { continue }
                years.append(max(span.lowerBound, first.adding(days: -1))...min(span.upperBound, last.adding(days: 1)))
                break
            }
            first = last.adding(days: 1)
        }
        return years
    }

    /// `run` with the stored days within three dates of it that overlap its span
    /// (`start`..<`end`) or, the nearest before and after, do not meet it (a gap); `nil`
    /// when every stored day beside it meets it.
    func grownToMeet(
        _ run: ClosedRange<LocalDate>, from start: Date, to end: Date, userID: String
    ) async throws -> ClosedRange<LocalDate>? {
        let beside = try await repositories.dailyMetrics.dailyMetrics(
            userID: userID, from: run.lowerBound.adding(days: -3), through: run.upperBound.adding(days: 3), version: .v1
        ).filter { LocalDate($0.localDate).map { !run.contains($0) } ?? false }
        let before = beside.filter { $0.localDate < run.lowerBound.description }.last
        let after = beside.first { $0.localDate > run.upperBound.description }
        let misfits = beside.filter { day in
            (day.utcDayStart < end && start < day.utcDayEnd)
                || (day.localDate == before?.localDate && day.utcDayEnd != start)
                || (day.localDate == after?.localDate && day.utcDayStart != end)
        }.compactMap { LocalDate($0.localDate) }
        guard let low = misfits.min(), let high = misfits.max() else { return nil }
        return min(run.lowerBound, low)...max(run.upperBound, high)
    }

    /// `ranges` as they are when every day near them is in `zone` — no sleep sample or
    /// workout there records another `HKTimeZone`, and no day stored there is of another
    /// zone — else each widened by the days such a zone moves: an observation decides the
    /// zone of the days whose noon is up to 2 days before it (``ZoneTimeline/lookAhead``) and
    /// 7 after it (``ZoneTimeline/lookBack``), and the days beside those end or start with
    /// them. A night slept in Tokyo, written after a Los Angeles week's steps, recomputed its
    /// own two days only: the days around stayed in Los Angeles and overlapped them.
    /// Answers each range with the one to compute (`widened`) beside it (`asked`).
    func widenedForZones(
        _ ranges: [ClosedRange<LocalDate>], zone: TimeZone, userID: String, normalizer: DailyNormalizer
    ) async throws -> [(widened: ClosedRange<LocalDate>, asked: ClosedRange<LocalDate>)] {
        let (before, after) = (Int(ZoneTimeline.lookAhead / 86400) + 2, Int(ZoneTimeline.lookBack / 86400) + 2)
        let widened = ranges.map { $0.lowerBound.adding(days: -before)...$0.upperBound.adding(days: after) }
        guard let first = widened.map(\.lowerBound).min(), let last = widened.map(\.upperBound).max() else { return [] }
        var away = try await normalizer.zoneChanges(from: first, through: last).contains {
            $0.zone.identifier != zone.identifier
        }
        if !away {
            // A trip whose samples were deleted leaves its days in its zone until computed again.
            away = try await repositories.dailyMetrics.dailyMetrics(
                userID: userID, from: first, through: last, version: .v1
            ).contains {
                // As Foundation names the zone (a day posted in "UTC" is in "GMT"'s days).
                TimeZone(identifier: $0.timezoneIdentifier)?.identifier != zone.identifier
            }
        }
        return zip(away ? widened : ranges, ranges).map { ($0, $1) }
    }
}
