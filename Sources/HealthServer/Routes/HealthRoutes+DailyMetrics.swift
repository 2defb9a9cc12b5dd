import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthReadiness
import HealthServerRecords
import HealthWire
import Hummingbird

/// The days of a person: stored (`POST`), read with what the token may see (`GET`), and
/// scored for readiness.
extension HealthRoutes {
    var dailyMetricsRoutes: RouteCollection<AuthenticatedContext> {
        Self.collection()
            .post("daily-metrics", use: postDailyMetrics)
            .get("daily-metrics", use: getDailyMetrics)
            .get("readiness", use: getReadiness)
    }

    /// `POST /v1/daily-metrics`: an array of payloads in the backend schema, upserted per
    /// (user, local_date, normalization_version) in one transaction. A day replaces the stored
    /// one whole, so the token needs write for every kind a day holds (steps, energy, sleep, heart).
    /// The days of earlier sample writes still pending are computed first: a day posted after
    /// a write's answer is not replaced by that write's computation.
    func postDailyMetrics(_ request: Request, _ context: AuthenticatedContext) async throws -> UpsertCounts {
        let user = try context.require(.write)
        try WritePermission.require(NormalizedDailyMetrics.categories, user: user)
        let days = try NormalizedDailyMetrics.backendDecoder().decode(
            [NormalizedDailyMetrics].self, from: try await context.jsonBody(request))
        guard days.count <= configuration.maxDaysPerRequest else {
            throw Problem.badRequest("at most \(configuration.maxDaysPerRequest) days per request; split the batch")
        }
        try DailyMetricsValidation.validate(days, user: user)
        let owned = days.map { day in
            var day = day
            day.userID = user.id
            return day
        }
        try await recomputer.computeDirtyDaysBeforeReading(userID: user.id)
        // Under the person's days lock: no computation, and no other post, between the check
        // of the days beside and the upsert.
        return try await repositories.writing(user.id) { database in
            try await database.withDaysLock {
                var beside: [NormalizedDailyMetrics] = []
                for version in Set(owned.compactMap { NormalizationVersion(rawValue: $0.normalizationVersion) }) {
                    let dates = owned.filter { $0.normalizationVersion == version.rawValue }.compactMap {
                        LocalDate($0.localDate)
                    }
                    guard let first = dates.min(), let last = dates.max() else { continue }
                    // Three dates each side: a day of UTC+14 reaches into the date two before.
                    beside += try await repositories.dailyMetrics.dailyMetrics(
                        userID: user.id, from: first.adding(days: -3), through: last.adding(days: 3), version: version)
                }
                try DailyMetricsValidation.refuseOverlaps(owned, stored: beside)
                return try await repositories.dailyMetrics.upsert(owned, userID: user.id)
            }
        }
    }

    /// `GET /v1/daily-metrics?from=&to=[&version=&types=]`: fields of kinds the token may not
    /// read (or did not ask for) are `null`; `HealthPipe-Withheld` names them. For a token
    /// that may not read some kinds, a day with no figure left is left out: the row of a day
    /// that holds only such a kind told a steps-only coach that the person wrote, say, a
    /// weight that day.
    func getDailyMetrics(
        _ request: Request, _ context: AuthenticatedContext
    ) async throws -> EditedResponse<Response> {
        let access = try await readAccess(context)
        let shown = try access.requested(request, offered: NormalizedDailyMetrics.categories)
        let (first, last) = try range(request, maxDays: 3660)
        let version = try self.version(request)
        let withheld = NormalizedDailyMetrics.categories.subtracting(shown)
        // Kinds the token may not read (not those a reader left out with `types`): a day of
        // those only is no row for it.
        let hidden = NormalizedDailyMetrics.categories.subtracting(access.readable)
        let days = try await currentDays(
            userID: access.user.id,
            oneStatement: {
                try await $0.currentDailyMetrics(userID: access.user.id, from: first, through: last, version: version)
            },
            inSteps: {
                try await repositories.dailyMetrics.dailyMetrics(
                    userID: access.user.id, from: first, through: last, version: version)
            }
        ).map { $0.withholding(withheld) }.filter { hidden.isEmpty || $0.hasFigures }
        return EditedResponse(
            headers: Self.withheldHeader(withheld),
            response: HealthResponseEncoder.response(try NormalizedDailyMetrics.backendJSON(days)))
    }

    /// `GET /v1/readiness?date=` (one score) or `?from=&to=` (an array), from the stored days.
    func getReadiness(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let access = try await readAccess(context)
        try access.require(NormalizedDailyMetrics.categories)
        let user = access.user
        let single = request.uri.queryParameters["date"].map(String.init)
        let (first, last): (LocalDate, LocalDate)
        if let single {
            let date = try Self.queryDate(single, name: "date")
            for name in ["from", "to"] as [Substring] {
                guard let value = request.uri.queryParameters[name] else { continue }
                guard LocalDate(String(value)) != nil else { throw Problem.badRequest("\(name) must be YYYY-MM-DD") }
                throw Problem.unprocessableQuery("give date, or from and to, not both")
            }
            (first, last) = (date, date)
        } else {
            (first, last) = try range(request, maxDays: 366)
        }
        var settings = ReadinessConfiguration()
        if let need = request.uri.queryParameters["sleep_need"] {
            guard let hours = Double(String(need)), (4.0...12.0).contains(hours) else {
                throw Problem.badRequest("sleep_need must be 4–12 hours")
            }
            settings.sleepNeedHours = hours
        }
        let (from, version) = (first.adding(days: -ReadinessEngine.historyDays), try version(request))
        let history = try await currentDays(
            userID: user.id,
            oneStatement: { try await $0.currentDailyFigures(userID: user.id, from: from, through: last, version: version) },
            inSteps: {
                try await repositories.dailyMetrics.dailyFigures(userID: user.id, from: from, through: last, version: version)
            })
        let dates = (first.dayNumber...last.dayNumber).map { LocalDate(dayNumber: $0).description }
        let scores = try ReadinessEngine(configuration: settings).scores(on: dates, figures: history)
        return HealthResponseEncoder.response(
            single == nil ? try ReadinessScore.backendJSON(scores) : try scores[0].backendJSON())
    }

    /// Days read for a request: in one statement with the user's existence and their dirty
    /// spans where the store can (``ServerRepositories/currentDays``), the dirty days computed
    /// first when there are some (and asked again: a person deleted meanwhile is a 401, never
    /// their emptied days); otherwise their dirty days computed first and then read in steps.
    func currentDays<Value: Sendable>(
        userID: String, oneStatement: (any CurrentDaysReading) async throws -> CurrentDays<Value>,
        inSteps: () async throws -> Value
    ) async throws -> Value {
        guard let reader = repositories.currentDays else {
            try await recomputer.computeDirtyDaysBeforeReading(userID: userID)
            return try await inSteps()
        }
        for attempt in 0..<2 {
            switch try await oneStatement(reader) {
            case .current(let value): return value
            case .userGone: throw Problem.userGone
            case .daysDirty where attempt == 0: try await recomputer.computeDaysFoundDirty(userID: userID)
            // Dirty again: a write committed since; its answer came after this read began.
            case .daysDirty: break
            }
        }
        return try await inSteps()
    }
}
