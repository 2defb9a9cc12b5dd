import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthExport
import HealthWire

struct Workouts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Workouts per local day, with what each recorded of itself: duration, energy, distance.",
        discussion: """
            The figures are the workout's own (its WorkoutStatistics, or the totals older exports put on it), \
            in the units it recorded them in; — where it recorded none. --format json gives what \
            GET /v1/workouts answers. `healthpipe export gpx --workout ID` writes a route. See docs/workouts.md.
            """)

    @OptionGroup var storage: StoreOptions
    @OptionGroup var range: DayRangeOptions

    @Option(help: "One activity: running, cycling, HKWorkoutActivityTypeWalking…")
    var type: String?

    @Option(help: "Only workouts at least this many minutes long.")
    var minMinutes = 0

    @Option(help: "table or json.")
    var format = TableOrJSON.table

    func validate() throws {
        guard (0...10_000).contains(minMinutes) else { throw ValidationError("--min-minutes must be 0…10000") }
        if let type, type.isEmpty || !type.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) {
            throw ValidationError("--type must be an activity such as running or HKWorkoutActivityTypeRunning")
        }
    }

    func run() async throws {
        let configuration = range.configuration()
        let (first, last, workouts, others, stored, zones) = try await storage.withQueries { store in
            let (first, last) = try await range.dates(store: store, configuration: configuration, defaultDays: 7)
            let normalizer = DailyNormalizer(store: store, configuration: configuration, now: { Date() })
            let span = try await normalizer.span(from: first, through: last)
            let inRange = try await store.workouts(overlapping: span).filter { $0.start >= span.start && $0.start < span.end }
            let workouts = inRange.filter { workout in
                type.map { HealthKitWorkoutActivities.matches(workout.activityType, $0) } ?? true
                    && workout.durationSeconds >= Double(minMinutes) * 60
            }
            let stored = inRange.isEmpty ? try await WorkoutTable.storedDays(store, normalizer) : nil
            let zones = try await WorkoutTable.zones(of: workouts, normalizer)
            return (first, last, workouts, inRange.count - workouts.count, stored, zones)
        }
        // A name that is no activity (HealthKit's, or one stored) and matched nothing: said.
        if let type, workouts.isEmpty, !HealthKitWorkoutActivities.isKnown(type) {
            printError(
                "error: --type \(type) is no activity; did you mean "
                    + HealthKitWorkoutActivities.closest(to: type).joined(separator: ", or ") + "?")
            throw ExitCode(2)
        }
        let everything = Set(HealthDataCategory.allCases)
        if format == .json {
            let answer = WorkoutListAnswer(
                from: first.description, to: last.description,
                workouts: workouts.map { WorkoutSummaryWire($0, readable: everything) })
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(try PrettyJSON.text(answer, encoder: encoder))
            return
        }
        guard !workouts.isEmpty else {
            guard others == 0 else {
                // The filters left out the range's workouts: said, not "no workouts".
                let kind =
                    type.map {
                        HealthKitWorkoutActivities.shortName($0).lowercased().replacingOccurrences(of: "_", with: " ") + " "
                    }
                    ?? ""
                let length = minMinutes > 0 ? " of \(minMinutes) minutes or more" : ""
                printError(
                    "No \(kind)workouts\(length) from \(first) through \(last); \(others) other workout"
                        + (others == 1 ? "" : "s") + " in those days.")
                return
            }
            printError(WorkoutTable.noneNote(from: first, through: last, stored: stored))
            return
        }
        print(WorkoutTable.render(workouts, zones: zones))
    }
}

/// One line per workout: its local day and start (``DailyNormalizer/zone(of:)``), activity,
/// minutes, recorded energy and distance, source and id.
enum WorkoutTable {
    /// The first and last local day with a workout in `store` (dated by its start, as the
    /// list dates it), in the days `normalizer` gives; `nil` without workouts.
    static func storedDays(
        _ store: any HealthQuerying, _ normalizer: DailyNormalizer
    ) async throws -> (first: LocalDate, last: LocalDate)? {
        guard let span = try await store.sampleSpans().first(where: { $0.type == .workout }) else { return nil }
        // The span ends at the latest end: the latest start is among the last days' workouts.
        let recent = try await store.workouts(
            overlapping: DateInterval(start: span.last.addingTimeInterval(-3 * 86_400), end: span.last + 1))
        return (
            try await normalizer.localDay(containing: span.first).date,
            try await normalizer.localDay(containing: recent.map(\.start).max() ?? span.last).date
        )
    }

    /// ``noneNote(from:through:stored:)`` with the store's workout days looked up.
    static func noneNote(
        from first: LocalDate, through last: LocalDate, in store: any HealthQuerying, _ normalizer: DailyNormalizer
    ) async throws -> String {
        noneNote(from: first, through: last, stored: try await storedDays(store, normalizer))
    }

    /// What a command with no workout from `first` through `last` says: where the store's
    /// workouts are (``storedDays(_:_:)``), or that it holds none.
    static func noneNote(from first: LocalDate, through last: LocalDate, stored: (first: LocalDate, last: LocalDate)?) -> String {
        "No workouts from \(first) through \(last)."
            + (stored.map { " The store's workouts run from \($0.first) to \($0.last); ask with --from and --to." }
                ?? " The store holds no workouts.")
    }

    /// The zone of each of `workouts` (``DailyNormalizer/zone(of:)``), by id.
    static func zones(of workouts: [Workout], _ normalizer: DailyNormalizer) async throws -> [UUID: TimeZone] {
        let zones = try await normalizer.workoutZones(workouts.map { ($0.start, $0.metadata.timeZoneIdentifier) })
        return Dictionary(zip(workouts.map(\.uuid), zones), uniquingKeysWith: { first, _ in first })
    }

    /// The table of `workouts`, each in its zone of `zones` (UTC when it has none).
    static func render(_ workouts: [Workout], zones: [UUID: TimeZone]) -> String {
        var rows = [["date", "start", "activity", "min", "energy", "distance", "source", "id"]]
        for workout in workouts {
            let local = zones[workout.uuid] ?? TimeZone(identifier: "UTC")!
            rows.append([
                LocalDate(workout.start, in: local).description, ClockTime.format(workout.start, in: local),
                HealthKitWorkoutActivities.shortName(workout.activityType),
                String(format: "%.1f", workout.durationSeconds / 60),
                figure(workout, total: workout.totalEnergyBurned, unit: workout.totalEnergyBurnedUnit) {
                    $0 == .activeEnergyBurned
                },
                figure(workout, total: workout.totalDistance, unit: workout.totalDistanceUnit) {
                    $0.identifier.hasPrefix("HKQuantityTypeIdentifierDistance")
                },
                workout.source.name, workout.uuid.uuidString.lowercased(),
            ])
        }
        return TextTable.render(rows, leftAligned: [0, 2, 6, 7])
    }

    /// The statistic of a type `matching` (its sum), else the element's total; `—` for none.
    private static func figure(
        _ workout: Workout, total: Double?, unit: String?, matching: (SampleType) -> Bool
    ) -> String {
        if let statistic = workout.statistics.first(where: { matching($0.type) && $0.sum?.isFinite == true }),
            let sum = statistic.sum
        {
            return String(format: "%.2f", sum) + (statistic.unit.map { " \($0)" } ?? "")
        }
        guard let total, total.isFinite, total != 0 else { return "—" }
        return String(format: "%.2f", total) + (unit.map { " \($0)" } ?? "")
    }
}
