import Foundation
import HealthCore

/// Reads the JSON body the Health Auto Export app POSTs (`{"data": {"metrics": […],
/// "workouts": […]}}`, see docs/formats.md §Health Auto Export) into ``HealthRecord``s.
///
/// - Quantity metrics become samples of their HealthKit type; a name not in
///   ``HAEMetricMap`` is kept as `HAE:<name>`.
/// - `heart_rate` points `{Min, Avg, Max}` become one sample of `Avg`, with the minimum and
///   maximum as metadata; `blood_pressure` points a correlation of two readings.
/// - `sleep_analysis`: unaggregated points are sleep samples of their stage; aggregated
///   points (totals of a night) become an in-bed sample over `inBedStart…inBedEnd` (without
///   them, the `inBed` hours ending at `sleepEnd`, so that the night ends when it did) and
///   one asleep sample from `sleepStart` lasting the night's total asleep time, the stage
///   totals kept as metadata (the app does not say when each stage happened).
/// - Workouts (in `data` or beside it) become workouts with energy, distance, steps and
///   the route; a v2 workout's `id` is kept as metadata and names it (``workoutUUID(_:)``):
///   re-sent with other content, it replaces the stored one.
/// - Other keys (`stateOfMind`, `medications`, `symptoms`, …) are named in `ignoredKeys`.
///
/// A point whose date or value cannot be read is an error that names its JSON Pointer:
/// nothing of the body is stored then.
public enum HAEReader {
    /// What a body held.
    public struct Batch: Sendable {
        public var records: [HealthRecord] = []
        /// Keys under `data` that are not read (and not errors).
        public var ignoredKeys: [String] = []
        /// Metric names kept as `HAE:<name>`.
        public var unknownMetrics: [String] = []
    }

    /// A body that cannot be read, with the JSON Pointer of the culprit.
    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public let pointer: String
        public let reason: String
        public var description: String { pointer.isEmpty ? reason : "\(pointer): \(reason)" }
    }

    static let defaultSource = Source(name: "Health Auto Export")

    /// The longest metric or workout name read: a type's name elsewhere is 200 characters
    /// at most (`HAE:` and the name).
    static let longestName = 196

    public static func read(_ data: Data) throws -> Batch {
        guard let root = try? JSONSerialization.jsonObject(with: data), let top = root as? [String: Any] else {
            throw ReadError(pointer: "", reason: "the body is not a JSON object")
        }
        guard let body = top["data"] as? [String: Any] else {
            throw ReadError(pointer: "/data", reason: #"expected {"data": {"metrics": [...], "workouts": [...]}}"#)
        }
        var batch = Batch()
        batch.ignoredKeys = body.keys.filter { !["metrics", "workouts"].contains($0) }.sorted()
        if let metrics = body["metrics"] {
            guard let list = metrics as? [[String: Any]] else {
                throw ReadError(pointer: "/data/metrics", reason: "expected an array of metrics")
            }
            for (index, metric) in list.enumerated() {
                try readMetric(metric, pointer: "/data/metrics/\(index)", into: &batch)
            }
        }
        for (pointer, workouts) in [("/data/workouts", body["workouts"]), ("/workouts", top["workouts"])] {
            guard let workouts else { continue }
            guard let list = workouts as? [[String: Any]] else {
                throw ReadError(pointer: pointer, reason: "expected an array of workouts")
            }
            for (index, workout) in list.enumerated() {
                let record = HealthRecord.workout(try readWorkout(workout, pointer: "\(pointer)/\(index)"))
                try checkPlausible([record], pointer: "\(pointer)/\(index)")
                batch.records.append(record)
            }
        }
        return batch
    }

    private static func readMetric(_ metric: [String: Any], pointer: String, into batch: inout Batch) throws {
        guard let name = metric["name"] as? String else { throw ReadError(pointer: pointer + "/name", reason: "missing name") }
        // A name becomes a type (`HAE:<name>`): as long as a type may be anywhere else.
        guard !name.isEmpty, name.count <= longestName else {
            throw ReadError(pointer: pointer + "/name", reason: "name must be 1–\(longestName) characters")
        }
        let units = HAEMetricMap.unit(metric["units"] as? String ?? "")
        let points = metric["data"] as? [[String: Any]] ?? []
        for (index, point) in points.enumerated() {
            let at = "\(pointer)/data/\(index)"
            let before = batch.records.count
            try readPoint(point, name: name, units: units, pointer: at, into: &batch)
            try checkPlausible(batch.records[before...], pointer: at)
        }
    }

    /// Refuses a point whose value (or span) no real measurement has, naming its pointer.
    private static func checkPlausible(_ records: some Collection<HealthRecord>, pointer: String) throws {
        for record in records {
            if let problem = PlausibleRange.violation(of: record) { throw ReadError(pointer: pointer, reason: problem) }
            let (start, end): (Date, Date) =
                switch record {
                case .sample(let sample): (sample.start, sample.end)
                case .correlation(let correlation): (correlation.start, correlation.end)
                case .workout(let workout): (workout.start, workout.end)
                default: (Date.distantPast, Date.distantPast)
                }
            if let problem = PlausibleRange.spanViolation(start: start, end: end) {
                throw ReadError(pointer: pointer, reason: problem)
            }
        }
    }

    private static func readPoint(
        _ point: [String: Any], name: String, units: String, pointer at: String, into batch: inout Batch
    ) throws {
        let source = (point["source"] as? String).map { Source(name: $0) } ?? defaultSource
        switch name {
        case "sleep_analysis":
            batch.records += try readSleep(point, pointer: at)
        case "blood_pressure":
            let (start, end, offset) = try interval(point, at)
            let readings = try [("systolic", SampleType.bloodPressureSystolic), ("diastolic", .bloodPressureDiastolic)].map {
                key, type in
                Sample(
                    type: type, start: start, end: end, value: .quantity(try number(point, key, at), unit: "mmHg"),
                    source: source, utcOffsetSeconds: offset)
            }
            batch.records += readings.map(HealthRecord.sample)
            batch.records.append(
                .correlation(
                    Correlation(
                        type: .bloodPressure, start: start, end: end, source: source, utcOffsetSeconds: offset,
                        objects: readings)))
        case "heart_rate" where point["Avg"] != nil:
            let (start, end, offset) = try interval(point, at)
            var metadata: [MetadataEntry] = []
            for (key, label) in [("Min", "HAEMinimum"), ("Max", "HAEMaximum")] {
                if let value = point[key] as? NSNumber { metadata.append(MetadataEntry(key: label, value: "\(value)")) }
            }
            batch.records.append(
                .sample(
                    Sample(
                        type: .heartRate, start: start, end: end, value: .quantity(try number(point, "Avg", at), unit: units),
                        source: source, metadata: metadata, utcOffsetSeconds: offset)))
        default:
            let type = HAEMetricMap.quantities[name] ?? SampleType("HAE:" + name)
            if HAEMetricMap.quantities[name] == nil, !batch.unknownMetrics.contains(name) {
                batch.unknownMetrics.append(name)
            }
            let (start, end, offset) = try interval(point, at)
            batch.records.append(
                .sample(
                    Sample(
                        type: type, start: start, end: end,
                        value: .quantity(HAEMetricMap.value(try number(point, "qty", at), units: units), unit: units),
                        source: source, utcOffsetSeconds: offset)))
        }
    }

    private static func readSleep(_ point: [String: Any], pointer: String) throws -> [HealthRecord] {
        let zone = [MetadataEntry]()
        if let startText = point["startDate"] as? String {
            // Unaggregated: one stage over startDate…endDate.
            let start = try date(startText, pointer + "/startDate")
            let end = try date(point["endDate"] as? String, pointer + "/endDate")
            return [
                .sample(
                    Sample(
                        type: .sleepAnalysis, start: start.date, end: end.date,
                        value: .category(HAEMetricMap.sleepValue(point["value"] as? String ?? "Asleep")),
                        source: (point["source"] as? String).map { Source(name: $0) } ?? defaultSource, metadata: zone,
                        utcOffsetSeconds: start.utcOffsetSeconds))
            ]
        }
        var records: [HealthRecord] = []
        let source = (point["source"] as? String) ?? (point["sleepSource"] as? String)
        let inBedSource = (point["inBedSource"] as? String) ?? source
        func inBed(from start: Date, to end: Date, offset: Int?) {
            records.append(
                .sample(
                    Sample(
                        type: .sleepAnalysis, start: start, end: end, value: .category(HAEMetricMap.sleepValue("In Bed")),
                        source: inBedSource.map { Source(name: $0) } ?? defaultSource, utcOffsetSeconds: offset)))
        }
        if let inBedStart = point["inBedStart"] as? String, let inBedEnd = point["inBedEnd"] as? String {
            let start = try date(inBedStart, pointer + "/inBedStart")
            inBed(from: start.date, to: try date(inBedEnd, pointer + "/inBedEnd").date, offset: start.utcOffsetSeconds)
        } else if let sleepEnd = point["sleepEnd"] as? String {
            // No bounds of the time in bed (6.6.2 and later): its hours, ending when the night
            // did (else the night from sleepStart), so that the night ends at its sleepEnd.
            let end = try date(sleepEnd, pointer + "/sleepEnd")
            let hours = (point["inBed"] as? NSNumber)?.doubleValue ?? 0
            let start =
                hours > 0 && hours <= 24
                ? end.date.addingTimeInterval(-hours * 3600)
                : try (point["sleepStart"] as? String).map { try date($0, pointer + "/sleepStart").date }
            if let start, start < end.date { inBed(from: start, to: end.date, offset: end.utcOffsetSeconds) }
        }
        let stages = ["core", "deep", "rem", "awake"].compactMap { key in
            (point[key] as? NSNumber).map { (key, $0.doubleValue) }
        }
        for (key, hours) in stages
            + ["totalSleep", "asleep"].compactMap({ key in
                (point[key] as? NSNumber).map { (key, $0.doubleValue) }
            }) where !(hours.isFinite && (0...24).contains(hours))
        {
            throw ReadError(pointer: pointer + "/" + key, reason: "hours of sleep must be from 0 to 24")
        }
        let stageSleep = stages.filter { $0.0 != "awake" }.reduce(0) { $0 + $1.1 }
        let asleep =
            (point["totalSleep"] as? NSNumber)?.doubleValue ?? (point["asleep"] as? NSNumber).map(\.doubleValue).flatMap {
                $0 > 0 ? $0 : nil
            } ?? stageSleep
        if asleep > 0, let sleepStart = point["sleepStart"] as? String {
            let start = try date(sleepStart, pointer + "/sleepStart")
            // The time asleep lies within the night: it ends by sleepEnd, when there is one.
            var end = start.date.addingTimeInterval(asleep * 3600)
            if let sleepEnd = point["sleepEnd"] as? String {
                let last = try date(sleepEnd, pointer + "/sleepEnd").date
                if last > start.date { end = min(end, last) }
            }
            records.append(
                .sample(
                    Sample(
                        type: .sleepAnalysis, start: start.date, end: end,
                        value: .category(HAEMetricMap.sleepValue("Asleep")),
                        source: source.map { Source(name: $0) } ?? defaultSource,
                        metadata: stages.map { MetadataEntry(key: "HAESleep\($0.0.capitalized)Hours", value: "\($0.1)") },
                        utcOffsetSeconds: start.utcOffsetSeconds)))
        }
        return records
    }

    private static func readWorkout(_ workout: [String: Any], pointer: String) throws -> Workout {
        let start = try date(workout["start"] as? String, pointer + "/start")
        let end = try date(workout["end"] as? String, pointer + "/end")
        let name = (workout["name"] as? String) ?? "Other"
        guard !name.isEmpty, name.count <= longestName else {
            throw ReadError(pointer: pointer + "/name", reason: "name must be 1–\(longestName) characters")
        }
        func quantity(_ key: String) -> (Double, String)? {
            guard let object = workout[key] as? [String: Any], let qty = (object["qty"] as? NSNumber)?.doubleValue else {
                return nil
            }
            return (qty, HAEMetricMap.unit(object["units"] as? String ?? ""))
        }
        var statistics: [WorkoutStatistic] = []
        if let (steps, _) = quantity("stepCount") {
            statistics.append(WorkoutStatistic(type: .stepCount, start: start.date, end: end.date, sum: steps, unit: "count"))
        }
        let beats = (workout["heartRateData"] as? [[String: Any]] ?? []).compactMap { ($0["qty"] as? NSNumber)?.doubleValue }
        if !beats.isEmpty {
            statistics.append(
                WorkoutStatistic(
                    type: .heartRate, start: start.date, end: end.date, average: beats.reduce(0, +) / Double(beats.count),
                    minimum: beats.min(), maximum: beats.max(), unit: "count/min"))
        }
        var points: [RoutePoint] = []
        for (index, point) in (workout["route"] as? [[String: Any]] ?? []).enumerated() {
            guard let latitude = (point["lat"] as? NSNumber)?.doubleValue,
                let longitude = (point["lon"] as? NSNumber)?.doubleValue
            else { throw ReadError(pointer: "\(pointer)/route/\(index)", reason: "a route point needs lat and lon") }
            let time = try (point["timestamp"] as? String).map { try date($0, "\(pointer)/route/\(index)/timestamp").date }
            let read = RoutePoint(
                time: time, latitude: latitude, longitude: longitude, elevation: (point["altitude"] as? NSNumber)?.doubleValue)
            if let problem = read.problem {
                let field = problem.field == "ele" ? "altitude" : problem.field
                throw ReadError(
                    pointer: "\(pointer)/route/\(index)/\(field)",
                    reason: problem.reason.replacingOccurrences(of: "ele ", with: "altitude "))
            }
            points.append(read)
        }
        guard points.count <= RoutePoint.maximumPerWorkout else {
            throw ReadError(
                pointer: "\(pointer)/route", reason: "a route has at most \(RoutePoint.maximumPerWorkout) points")
        }
        let energy = quantity("activeEnergy")
        let distance = quantity("distance")
        return Workout(
            activityType: "HKWorkoutActivityType" + name.replacingOccurrences(of: " ", with: ""), start: start.date,
            end: end.date, duration: end.date.timeIntervalSince(start.date) / 60, durationUnit: "min",
            totalDistance: distance?.0, totalDistanceUnit: distance?.1, totalEnergyBurned: energy?.0,
            totalEnergyBurnedUnit: energy?.1, source: defaultSource,
            metadata: (workout["id"] as? String).map { [MetadataEntry(key: "HAEWorkoutID", value: $0)] } ?? [],
            utcOffsetSeconds: start.utcOffsetSeconds, statistics: statistics,
            routes: points.isEmpty ? [] : [WorkoutRoute(source: defaultSource, start: start.date, end: end.date, points: points)],
            uuid: (workout["id"] as? String).map(workoutUUID))
    }

    /// A v2 workout's identity: its `id` when it is a UUID (the HealthKit workout's), else a
    /// UUID derived from it, so that a workout re-sent under the same `id` replaces the old.
    static func workoutUUID(_ id: String) -> UUID {
        UUID(uuidString: id) ?? UUID.derived(from: id, namespace: "HAEWorkoutID")
    }

    /// `start`/`end` when the point has them, else the instant `date`.
    private static func interval(_ point: [String: Any], _ pointer: String) throws -> (Date, Date, Int) {
        if let start = point["start"] as? String {
            let from = try date(start, pointer + "/start")
            let to = try date(point["end"] as? String ?? start, pointer + "/end")
            guard to.date >= from.date else { throw ReadError(pointer: pointer + "/end", reason: "end must not be before start") }
            return (from.date, to.date, from.utcOffsetSeconds)
        }
        let at = try date(point["date"] as? String, pointer + "/date")
        return (at.date, at.date, at.utcOffsetSeconds)
    }

    private static func date(_ text: String?, _ pointer: String) throws -> ExportDate.Parsed {
        guard let text else { throw ReadError(pointer: pointer, reason: "missing date") }
        guard let parsed = HAEDate.parse(text) else {
            throw ReadError(pointer: pointer, reason: "not a date like 2024-01-05 08:00:00 -0800 in the years 1900–2199")
        }
        return parsed
    }

    private static func number(_ point: [String: Any], _ key: String, _ pointer: String) throws -> Double {
        guard let value = (point[key] as? NSNumber)?.doubleValue, value.isFinite else {
            throw ReadError(pointer: "\(pointer)/\(key)", reason: "expected a number")
        }
        return value
    }
}
