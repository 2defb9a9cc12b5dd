import Foundation
import HealthContext
import HealthCore
import HealthDaily
import HealthMetrics
import HealthReadiness
import MCP

/// The reading tools.
extension CoachTools {
    func coachContext(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["at", "tz", "lat", "lon"])
        var instant = source.now()
        var note: String?
        if let text = try arguments.string("at") {
            guard let parsed = NormalizedDailyMetrics.parseInstant(text) else {
                throw ToolError(
                    message: "at must be an ISO 8601 instant with an offset, not '\(text.prefix(40))'",
                    hint: "For example 2024-06-01T20:00:00Z.")
            }
            guard NormalizedDailyMetrics.servedInstants.contains(parsed) else {
                throw ToolError(message: "at must be within the years 1900–2199", hint: "For example 2024-06-01T20:00:00Z.")
            }
            instant = parsed
        } else {
            // As of the newest sample when the store holds nothing newer than an earlier day.
            let anchor = try await source.anchor()
            instant = anchor.instant(now: instant)
            note = anchor.snapshotNote
        }
        var settings = ContextAssembler.Configuration()
        (settings.providerTimeout, settings.dayTimeout) = (source.providerTimeout, source.providerTimeout)
        settings.daily = source.normalization
        settings.daily.homeZone = try zone(arguments) ?? source.normalization.homeZone
        var location: GeoLocation?
        switch (
            arguments.values["lat"]?.doubleValue ?? arguments.values["lat"]?.intValue.map(Double.init),
            arguments.values["lon"]?.doubleValue ?? arguments.values["lon"]?.intValue.map(Double.init)
        ) {
        case (nil, nil) where arguments.values["lat"] == nil && arguments.values["lon"] == nil: location = nil
        case (let lat?, let lon?):
            guard let valid = GeoLocation(latitude: lat, longitude: lon) else {
                throw ToolError(message: "lat must be within -90…90 and lon within -180…180", hint: "Give degrees.")
            }
            location = valid
        default: throw ToolError(message: "give lat and lon together, as numbers in degrees", hint: "Or neither.")
        }
        let snapshot = await ContextAssembler.standard(
            store: source.store, appData: source.appData, weather: source.weather, location: location,
            configuration: settings, withheld: source.withheld
        ).assemble(at: instant)
        return Answer(structured: try Self.value(snapshot), summary: snapshot.summary + Self.noting(note))
    }

    func dailyMetrics(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["from", "to", "version"])
        let (first, last) = try arguments.range(maxDays: 3660)
        let shown = NormalizedDailyMetrics.categories.subtracting(source.withheld)
        guard !shown.isEmpty else { throw DataWithheld(kinds: NormalizedDailyMetrics.categories) }
        let pageLast = min(last, first.adding(days: Self.pageDays - 1))
        let days = try await days(
            from: first, through: pageLast, version: try arguments.choice("version", ["norm_v1", "norm_v2"])
        )
        .map { $0.withholding(source.withheld) }
        let rows: [Value] = days.map { day in
            .object([
                "local_date": .string(day.localDate), "timezone": .string(day.timezoneIdentifier),
                "steps": .number(day.stepsNormalized), "steps_raw_sum": .number(day.stepsRawSum),
                "steps_primary_source": .text(day.stepsSources?.primarySource),
                "suspicious_steps": day.stepsSources.map { .bool($0.suspiciousSteps) } ?? .null,
                "active_energy_kcal": .number(day.activeEnergyKcal), "sleep_hours": .number(day.sleepHours),
                "sleep_basis": .text(day.sleepSource?.basis.rawValue), "in_bed_hours": .number(day.sleepSource?.inBedHours),
                "resting_hr_bpm": .number(day.restingHRBpm), "hrv_ms": .number(day.hrvMs),
            ])
        }
        let withheld = NormalizedDailyMetrics.categories.intersection(source.withheld)
        var answer: [String: Value] = [
            "days": .array(rows), "version": .string(days.first?.normalizationVersion ?? "norm_v1"),
            "withheld": .array(withheld.sorted().map { .string($0.rawValue) }), "coverage": coverage(of: days),
        ]
        if pageLast < last { answer["next_from"] = .string(pageLast.adding(days: 1).description) }
        let steps = days.compactMap(\.stepsNormalized)
        let sleep = days.compactMap(\.sleepHours)
        var summary =
            "\(days.count) days \(first)–\(pageLast): steps on \(steps.count) days"
            + (steps.isEmpty ? "" : " (mean \(figure(mean(steps.map(Double.init)))))")
            + ", sleep on \(sleep.count) nights" + (sleep.isEmpty ? "" : " (mean \(figure(mean(sleep), 1)) h)") + "."
        if pageLast < last { summary += " More from \(pageLast.adding(days: 1)) (next_from)." }
        if steps.isEmpty, sleep.isEmpty,
            days.allSatisfy({ $0.activeEnergyKcal == nil && $0.restingHRBpm == nil && $0.hrvMs == nil })
        {
            summary += try await whereTheDataIs(from: first, through: pageLast)
        }
        return Answer(structured: .object(answer), summary: summary)
    }

    func sleep(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["from", "to", "include_timeline"])
        let (first, last) = try arguments.range(maxDays: 3660)
        let timeline = try arguments.bool("include_timeline")
        let pageLast = min(last, first.adding(days: (timeline ? 7 : Self.pageNights) - 1))
        let nights = try await SleepAnalyzer(store: source.store, configuration: source.normalization)
            .nights(from: first, through: pageLast)
        let rows: [Value] = nights.map { night in
            let zone = TimeZone(identifier: night.timezoneIdentifier) ?? source.normalization.homeZone
            var row: [String: Value] = [
                "local_date": .string(night.localDate), "source": .text(night.source), "main": .null,
                "naps": .array(
                    night.naps.map { nap in
                        .object([
                            "start": .string(localTime(nap.bedtime, zone)), "end": .string(localTime(nap.waketime, zone)),
                            "asleep_minutes": .number(nap.asleepSeconds.map { $0 / 60 }),
                        ])
                    }),
            ]
            if let main = night.main {
                var session: [String: Value] = [
                    "bedtime": .string(localTime(main.bedtime, zone)), "waketime": .string(localTime(main.waketime, zone)),
                    "basis": .string(main.basis.rawValue), "asleep_hours": .number(main.asleepSeconds.map { $0 / 3600 }),
                    "in_bed_hours": .double(main.inBedSeconds / 3600),
                    "efficiency_percent": .number(main.efficiency), "awakenings": .number(main.awakenings),
                    "stage_minutes": .object(
                        Dictionary(
                            uniqueKeysWithValues: [SleepStage.deep, .core, .rem, .unspecified, .awake].map { stage in
                                (stage.rawValue, Value.number(main.stageMinutes(stage)))
                            })),
                ]
                if timeline {
                    session["timeline"] = .array(
                        main.timeline.map { segment in
                            .object([
                                "start": .string(localTime(segment.start, zone)), "end": .string(localTime(segment.end, zone)),
                                "stage": .string(segment.stage.rawValue),
                            ])
                        })
                }
                row["main"] = .object(session)
            }
            return .object(row)
        }
        var answer: [String: Value] = ["nights": .array(rows)]
        if pageLast < last { answer["next_from"] = .string(pageLast.adding(days: 1).description) }
        let asleep = nights.compactMap { $0.main?.asleepSeconds }.map { $0 / 3600 }
        let inBedOnly = nights.filter { $0.main != nil && $0.main?.asleepSeconds == nil }.count
        var summary =
            "\(nights.count) night\(nights.count == 1 ? "" : "s") \(first)–\(pageLast): main sleep on \(asleep.count + inBedOnly)"
            + (inBedOnly == 0 ? "" : " (\(inBedOnly) with time in bed only, asleep unknown)")
            + (asleep.isEmpty ? "" : ", mean \(figure(mean(asleep), 1)) h asleep")
            + ", naps on \(nights.filter { !$0.naps.isEmpty }.count)."
        if pageLast < last { summary += " More from \(pageLast.adding(days: 1)) (next_from)." }
        if nights.allSatisfy({ $0.main == nil && $0.naps.isEmpty }) {
            summary += try await whereTheDataIs(from: first, through: pageLast)
        }
        return Answer(structured: .object(answer), summary: summary)
    }

    func readiness(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["date", "from", "to"])
        let first: LocalDate
        let last: LocalDate
        var note: String?
        if let date = try arguments.date("date") {
            guard arguments.values["from"] == nil, arguments.values["to"] == nil else {
                throw ToolError(message: "give date, or from and to, not both", hint: "Drop date or the range.")
            }
            (first, last) = (date, date)
        } else if arguments.values["from"] == nil, arguments.values["to"] == nil {
            // Today, or the last day with data when nothing is newer (the answer says so).
            let anchor = try await source.anchor()
            (first, last) = (anchor.day, anchor.day)
            note = anchor.movedNote(days: 1)
        } else {
            (first, last) = try arguments.range(maxDays: 3660)
        }
        let pageLast = min(last, first.adding(days: Self.pageScores - 1))
        let history = try await days(from: first.adding(days: -ReadinessEngine.historyDays), through: pageLast, version: nil)
        let dates = (first.dayNumber...pageLast.dayNumber).map { LocalDate(dayNumber: $0).description }
        let scores = try ReadinessEngine().scores(on: dates, history: history)
        // The days behind the scores: the page's, and the history each score compares with.
        var answer: [String: Value] = ["scores": try Self.value(scores), "coverage": coverage(of: history)]
        if pageLast < last { answer["next_from"] = .string(pageLast.adding(days: 1).description) }
        if note != nil { answer["latest_data"] = .string(last.description) }
        var summary: String
        if let score = scores.last {
            summary =
                "Readiness on \(score.date): " + (score.score.map { "\($0) (\(score.band?.rawValue ?? "—"))" } ?? "no score")
                + ". \(score.reason)" + (scores.count > 1 ? " \(scores.count) days given." : "")
        } else {
            summary = "No days."
        }
        if scores.allSatisfy({ $0.score == nil }) { summary += try await whereTheDataIs(from: first, through: pageLast) }
        return Answer(structured: .object(answer), summary: summary + Self.noting(note))
    }

    func workouts(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["from", "to", "activity", "include_route", "min_minutes"])
        let minimum = Double(try arguments.integer("min_minutes", in: 0...10_000) ?? 0) * 60
        let (first, last) = try arguments.range(maxDays: 3660)
        // The days in the data's zones (a workout's HKTimeZone, else the home zone), as every read.
        let normalizer = DailyNormalizer(store: source.store, configuration: source.normalization, now: source.now)
        let window = try await normalizer.span(from: first, through: last)
        let routes = try arguments.bool("include_route")
        // A route tells the distance and the pace: without activity, none (and said so).
        let routesWithheld = routes && source.withheld.contains(.activity)
        // With routes, fewer workouts: each route is up to 100 points.
        let limit = routes ? 10 : 50
        let activity = try arguments.string("activity")
        let workouts = try await WorkoutSummarizer(store: source.store, withheld: source.withheld).workouts(
            in: window, limit: limit, routePoints: routes ? 100 : 0, activity: activity, minimumSeconds: minimum
        ).filter { window.start <= $0.start && $0.start < window.end }
        // A name that is no activity (HealthKit's, or one stored) and matched nothing: said.
        if let activity, workouts.isEmpty, !HealthKitWorkoutActivities.isKnown(activity) {
            throw ToolError(
                message: "no activity named '\(activity.prefix(60))'",
                hint: "For example " + HealthKitWorkoutActivities.closest(to: activity).joined(separator: ", ") + ".")
        }
        // Each in the zone of its day unless it recorded one, as get_workout_details shows it.
        let zones = try await normalizer.workoutZones(workouts.map { ($0.start, $0.timeZone) })
        let rows: [Value] = zip(workouts, zones).map { workout, zone in
            var row: [String: Value] = [
                // For get_workout_details and get_workout_route.
                "id": .text(workout.id?.uuidString.lowercased()),
                "activity": .string(workout.activity), "start": .string(localTime(workout.start, zone)),
                "duration_minutes": .double(
                    (workout.durationSeconds ?? workout.end.timeIntervalSince(workout.start)) / 60),
                "active_energy_kcal": .number(workout.energyKcal), "distance_km": .number(workout.distanceKm),
                "mean_heart_rate_bpm": .number(workout.averageHeartRate),
                // "workout" (what it recorded of itself) or "samples" (those of its span); null with the figure.
                "energy_source": .text(workout.energySource?.rawValue),
                "distance_source": .text(workout.distanceSource?.rawValue),
                "heart_rate_source": .text(workout.heartRateSource?.rawValue),
            ]
            if routes, !routesWithheld {
                // Five decimals: about a metre, enough to draw the route.
                let rounded = { (degrees: Double) in Value.double((degrees * 100_000).rounded() / 100_000) }
                row["route"] = .array(workout.route.map { .array([rounded($0.latitude), rounded($0.longitude)]) })
            }
            return .object(row)
        }
        let minutes = workouts.reduce(0) { $0 + ($1.durationSeconds ?? $1.end.timeIntervalSince($1.start)) / 60 }
        let kinds = Dictionary(grouping: workouts, by: \.activity).map { "\($0.value.count) \($0.key)" }.sorted()
        var empty = ""
        if workouts.isEmpty { empty = try await whereTheDataIs(from: first, through: last) }
        return Answer(
            structured: .object([
                "workouts": .array(rows), "limit": .int(limit),
                "withheld": .array(routesWithheld ? [.string(HealthDataCategory.activity.rawValue)] : []),
            ]),
            summary: "\(workouts.count) workouts \(first)–\(last)"
                + (workouts.isEmpty ? "." : ": \(kinds.joined(separator: ", ")), \(figure(minutes)) minutes in all.") + empty)
    }

    // MARK: Helpers

    /// " No data from A to B; the data runs from X to Y." for an empty answer whose range
    /// lies outside the samples this reader may see; "" otherwise (and for a reader with no
    /// samples at all: a server's days may have been posted as days).
    func whereTheDataIs(from first: LocalDate, through last: LocalDate) async throws -> String {
        let anchor = try await source.anchor()
        guard anchor.firstDay != nil, let note = anchor.emptyNote(from: first, through: last) else { return "" }
        return " " + Self.sentence(note)
    }

    /// " Latest data 2024-12-30; showing that day." for a default day that moved to the last
    /// day with data; "" for none.
    static func noting(_ note: String?) -> String {
        note.map { " " + sentence($0) } ?? ""
    }

    /// A note as a sentence: capitalised, with a full stop.
    static func sentence(_ note: String) -> String {
        guard let initial = note.first else { return note }
        return String(initial).uppercased() + String(note.dropFirst()) + "."
    }

    /// Days from the source in effect (`version` overriding its normalisation version).
    func days(from first: LocalDate, through last: LocalDate, version: String?) async throws -> [NormalizedDailyMetrics] {
        if let version, version != source.normalization.version.rawValue, let chosen = NormalizationVersion(rawValue: version) {
            var settings = source.normalization
            settings.version = chosen
            return try await DailyNormalizer(store: source.store, configuration: settings, now: source.now)
                .metrics(from: first, through: last)
        }
        return try await source.daily.metrics(from: first, through: last)
    }

    func zone(_ arguments: ToolArguments) throws -> TimeZone? {
        guard let name = try arguments.string("tz") else { return nil }
        guard let zone = TimeZone(identifier: name) else {
            throw ToolError(message: "tz must be an IANA zone, not '\(name.prefix(40))'", hint: "For example Europe/Paris.")
        }
        return zone
    }

    /// A value in the CLI's own JSON form (ISO 8601 instants).
    static func value(_ encodable: some Encodable) throws -> Value {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try JSONDecoder().decode(Value.self, from: try encoder.encode(encodable))
    }
}

func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
