import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import MCP

/// Trends, comparisons, the inventory, aggregated samples and the one write.
extension CoachTools {
    /// A metric of ``metrics`` by name, checked against what this reader may see.
    func metric(_ name: String) throws -> (name: String, unit: String, value: (NormalizedDailyMetrics) -> Double?) {
        guard let metric = Self.metrics.first(where: { $0.name == name }) else {
            throw ToolError(
                message: "no metric '\(name.prefix(40))'", hint: "Use one of \(Self.metrics.map(\.name).joined(separator: ", "))."
            )
        }
        try require([metric.category])
        return (metric.name, metric.unit, metric.value)
    }

    /// The days' values of one metric and their mean.
    private func summary(
        _ days: ArraySlice<NormalizedDailyMetrics>, _ value: (NormalizedDailyMetrics) -> Double?
    ) -> (
        mean: Double?, days: Int
    ) {
        let values = days.compactMap(value)
        return (mean(values), values.count)
    }

    func comparePeriods(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["a_from", "a_to", "b_from", "b_to", "metric"])
        func period(_ prefix: String) throws -> (LocalDate, LocalDate) {
            let first = try arguments.requiredDate("\(prefix)_from")
            let last = try arguments.requiredDate("\(prefix)_to")
            guard first <= last, last.dayNumber - first.dayNumber < 366 else {
                throw ToolError(
                    message: "\(prefix)_from must not be after \(prefix)_to, and the period at most 366 days",
                    hint: "Check period \(prefix.uppercased()).")
            }
            return (first, last)
        }
        let (aFirst, aLast) = try period("a")
        let (bFirst, bLast) = try period("b")
        let chosen =
            try arguments.string("metric").map { [try metric($0)] }
            ?? Self.metrics.filter { !source.withheld.contains($0.category) }.map { ($0.name, $0.unit, $0.value) }
        guard !chosen.isEmpty else { throw DataWithheld(kinds: Set(Self.metrics.map(\.category))) }
        let a = try await days(from: aFirst, through: aLast, version: nil)
        let b = try await days(from: bFirst, through: bLast, version: nil)
        var rows: [Value] = []
        var lines: [String] = []
        for metric in chosen {
            let (aMean, aDays) = summary(a[...], metric.value)
            let (bMean, bDays) = summary(b[...], metric.value)
            let difference = bMean.flatMap { later in aMean.map { later - $0 } }
            let percent = difference.flatMap { delta in aMean.flatMap { $0 != 0 ? delta / $0 * 100 : nil } }
            rows.append(
                .object([
                    "metric": .string(metric.name), "unit": .string(metric.unit), "a_mean": .number(aMean),
                    "a_days_with_data": .int(aDays), "b_mean": .number(bMean), "b_days_with_data": .int(bDays),
                    "difference": .number(difference), "change_percent": .number(percent),
                ]))
            let digits = metric.name == "sleep_hours" ? 1 : 0
            lines.append("\(metric.name) \(figure(aMean, digits)) → \(figure(bMean, digits)) \(metric.unit)")
        }
        return Answer(
            structured: .object([
                "a": .object(["from": .string(aFirst.description), "to": .string(aLast.description)]),
                "b": .object(["from": .string(bFirst.description), "to": .string(bLast.description)]), "metrics": .array(rows),
                "coverage": .object(["a": coverage(of: a), "b": coverage(of: b)]),
            ]), summary: "A \(aFirst)–\(aLast) against B \(bFirst)–\(bLast): " + lines.joined(separator: "; ") + ".")
    }

    func dataTypes(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only([])
        let zone = source.normalization.homeZone
        let inventory = try await source.store.sampleInventory().filter {
            !source.withheld.contains(HealthDataCategory($0.type))
        }
        let rows: [Value] = inventory.map { entry in
            .object([
                "type": .string(entry.type.identifier), "name": entry.type.shortName.map(Value.string) ?? .null,
                "kind": .string(HealthDataCategory(entry.type).rawValue),
                "count": .int(entry.count), "first_date": .string(LocalDate(entry.first, in: zone).description),
                "last_date": .string(LocalDate(entry.last, in: zone).description),
                "sources": .array(entry.sources.prefix(5).map { .string($0) }), "source_count": .int(entry.sources.count),
            ])
        }
        let total = inventory.reduce(0) { $0 + $1.count }
        return Answer(
            structured: .object(["types": .array(rows)]),
            summary: "\(inventory.count) types, \(total) samples"
                + (inventory.isEmpty
                    ? "."
                    : "; most: \(inventory.sorted { $0.count > $1.count }.prefix(3).map { "\(Self.shortName($0.type)) (\($0.count))" }.joined(separator: ", ")).")
        )
    }

    func querySamples(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["type", "from", "to", "bucket", "unit"])
        guard let name = try arguments.string("type") else {
            throw ToolError(
                message: "type is required",
                hint: "A short name such as heart_rate or a HealthKit identifier; list_data_types names them.")
        }
        let type: SampleType
        do {
            // The one table of names (SampleTypeNames); a type beyond it when the store holds it.
            type = try await SampleTypeNames.type(named: name) {
                try await source.store.sampleInventory().map(\.type)
            }
        } catch let error as UnknownSampleTypeName {
            throw ToolError(message: error.description, hint: "list_data_types names the stored types.")
        }
        try require([HealthDataCategory(type)])
        let hourly = try arguments.choice("bucket", ["hour", "day"]) == "hour"
        let (first, last) = try arguments.range(maxDays: hourly ? 14 : 366)
        // The days' own bounds and zones (a trip abroad moves them), as get_daily_metrics uses.
        let days = try await DailyNormalizer(store: source.store, configuration: source.normalization, now: source.now)
            .localDays(from: first, through: last)
        guard let start = days.first?.interval.start, let end = days.last?.interval.end, start < end else {
            throw ToolError(message: "no days in the range", hint: "Check from and to.")
        }
        let whole = DateInterval(start: start, end: end)
        let buckets: [(interval: DateInterval, label: String)] =
            hourly
            ? stride(from: whole.start, to: whole.end, by: 3600).map { hour in
                let zone = days.last { $0.interval.start <= hour }?.zone ?? source.normalization.homeZone
                return (DateInterval(start: hour, duration: 3600), localTime(hour, zone))
            }
            : days.map { ($0.interval, $0.date.description) }
        let samples = try await source.store.samples(of: type, overlapping: whole)
        // Each sample into every bucket it overlaps (buckets are in order and contiguous).
        var members = [[Sample]](repeating: [], count: buckets.count)
        for sample in samples {
            // The first bucket ending after the sample starts (binary search).
            var (low, high) = (0, buckets.count)
            while low < high {
                let middle = (low + high) / 2
                if buckets[middle].interval.end > sample.start { high = middle } else { low = middle + 1 }
            }
            var index = low
            while index < buckets.count, buckets[index].interval.start < max(sample.end, sample.start.addingTimeInterval(1)) {
                members[index].append(sample)
                index += 1
            }
        }
        let unitText = try arguments.string("unit") ?? type.canonicalUnit ?? samples.first?.value.unit
        // A unit of another dimension (kg for a speed) would answer every bucket without a value.
        if type.kind != .category, let unitText, let own = type.canonicalUnit ?? samples.first?.value.unit,
            (try? HealthUnit.convert(1, from: own, to: unitText)) == nil, (try? HealthUnit(parsing: unitText)) != nil,
            (try? HealthUnit(parsing: own)) != nil
        {
            throw ToolError(
                message: "'\(unitText.prefix(40))' is no unit of \(Self.shortName(type))",
                hint: "Its values are in \(own) or a unit that converts from it.")
        }
        let cumulative = type.quantityAggregation?.isCumulative ?? false
        var rows: [Value] = []
        for ((bucket, label), inside) in zip(buckets, members) where !inside.isEmpty {
            var row: [String: Value] = [hourly ? "start" : "date": .string(label), "count": .int(inside.count)]
            if type.kind == .category {
                let minutes = inside.reduce(0) { total, sample in
                    let lower = max(sample.start, bucket.start)
                    let upper = min(sample.end, bucket.end)
                    return total + max(0, upper.timeIntervalSince(lower)) / 60
                }
                row["minutes"] = .double(minutes)
            } else {
                guard let unitText, let unit = try? HealthUnit(parsing: unitText) else {
                    throw ToolError(
                        message: "'\((unitText ?? "").prefix(40))' is not a unit", hint: "For example count/min or kg.")
                }
                if cumulative {
                    let merged = CumulativeRule.evaluate(inside, day: bucket, unit: unit, version: .v1)
                    row["sum"] = .number(merged.value)
                    row["raw_sum"] = .number(merged.rawSum)
                } else {
                    let statistics = SampleStatistics.compute(inside, over: bucket, unit: unit)
                    row["mean"] = .number(statistics.average)
                    row["min"] = .number(statistics.minimum)
                    row["max"] = .number(statistics.maximum)
                }
            }
            rows.append(.object(row))
        }
        let note =
            type.kind == .category
            ? "minutes: time covered by the samples in each bucket"
            : cumulative
                ? "sum: Apple Watch and iPhone not counted twice (the daily rule, norm_v1); raw_sum: every source added"
                : "mean, min, max of the samples in each bucket"
        return Answer(
            structured: .object([
                "type": .string(type.identifier), "bucket": .string(hourly ? "hour" : "day"),
                "unit": .text(type.kind == .category ? "min" : unitText),
                "buckets": .array(rows), "note": .string(note),
            ]),
            summary:
                "\(Self.shortName(type)) \(first)–\(last): \(samples.count) samples in \(rows.count) of \(buckets.count) \(hourly ? "hours" : "days"); \(note)."
        )
    }

    func logSubjective(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["date", "energy", "mood", "stress", "note"])
        // Today on the wall clock, even over old data: the person rates how they feel now.
        let day: LocalDate
        if let date = try arguments.date("date") { day = date } else { day = try await source.today() }
        let note = try arguments.string("note")
        if let note, note.count > 500 {
            throw ToolError(message: "note is \(note.count) characters; at most 500", hint: "Shorten it.")
        }
        let entry: DailyLogEntry
        do {
            entry = try DailyLogEntry(
                date: day, energy: try arguments.integer("energy", in: 1...5), mood: try arguments.integer("mood", in: 1...5),
                stress: try arguments.integer("stress", in: 1...5), note: note)
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError(message: "\(error)", hint: "Ratings are whole numbers from 1 to 5.")
        }
        guard !entry.isEmpty else {
            throw ToolError(message: "nothing to log", hint: "Give energy, mood, stress (1–5) or a note.")
        }
        let stored = try await source.appData.saveDailyLog(entry)
        func rating(_ value: Int?) -> String { value.map { "\($0)/5" } ?? "—" }
        return Answer(
            structured: .object([
                "date": .string(day.description), "energy": .number(stored.energy), "mood": .number(stored.mood),
                "stress": .number(stored.stress), "note": .text(stored.note),
            ]),
            summary:
                "Logged for \(day): energy \(rating(stored.energy)), mood \(rating(stored.mood)), stress \(rating(stored.stress))."
        )
    }

    /// `HeartRate` for `HKQuantityTypeIdentifierHeartRate`.
    static func shortName(_ type: SampleType) -> String {
        for prefix in [
            "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier", "HKDataTypeIdentifier",
        ]
        where type.identifier.hasPrefix(prefix) {
            return String(type.identifier.dropFirst(prefix.count))
        }
        return type.identifier
    }
}
