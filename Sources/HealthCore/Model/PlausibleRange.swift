import Foundation

/// The values a quantity sample can plausibly have, per type, checked at every way into a
/// store (`POST /v1/samples`, sync batches, Health Auto Export, export imports).
///
/// A value outside its type's range is refused at the way in; a value already stored
/// (from before the ranges existed) is skipped by the daily rules, never trusted into an
/// integer conversion. The table is in docs/plausible-ranges.md.
///
/// ```swift
/// let steps = Sample(type: .stepCount, start: t, end: t, value: .quantity(1e300, unit: "count"), source: s)
/// PlausibleRange.violation(of: steps)   // "value must be between 0 and 200000 count for HKQuantityTypeIdentifierStepCount"
/// ```
public struct PlausibleRange: Sendable, Hashable {
    /// The unit `bounds` is in; a value in another unit of the same dimension is converted.
    public let unit: String
    public let bounds: ClosedRange<Double>

    public init(_ bounds: ClosedRange<Double>, _ unit: String) {
        self.bounds = bounds
        self.unit = unit
    }

    /// Any quantity type without its own row, in the sample's own unit: a bound that keeps
    /// a day's sum of any type far from the integer range.
    public static let anyQuantity = PlausibleRange(-1e12...1e12, "")

    /// The longest span of a sample (a manual entry of a month at most).
    public static let longestSpan: TimeInterval = 31 * 86400

    /// The range of `type`, or `nil` for types without their own row.
    public static func of(_ type: SampleType) -> PlausibleRange? { table[type.identifier] }

    /// Why `sample` is implausible (its value, or a member's), or `nil` when it is fine.
    /// Names the type, the bounds and the unit, never the value itself.
    public static func violation(of sample: Sample) -> String? {
        guard case .quantity(let value, let unit) = sample.value else { return nil }
        return violation(value: value, unit: unit, type: sample.type)
    }

    /// Why `record` is implausible, or `nil`: a sample's value, a correlation's members, a
    /// workout's totals and statistics (energy and distance by their types' rows).
    public static func violation(of record: HealthRecord) -> String? {
        switch record {
        case .sample(let sample):
            return violation(of: sample)
        case .correlation(let correlation):
            return correlation.objects.lazy.compactMap { violation(of: $0) }.first
        case .workout(let workout):
            if let duration = workout.duration {
                // In seconds: 1e307 minutes is finite, but not as seconds. Its unit unknown: the
                // number alone (readers fall back to end − start).
                let seconds = Workout.seconds(duration, unit: workout.durationUnit ?? "min")
                let known = Workout.isDurationUnit(workout.durationUnit)
                if !duration.isFinite || duration < 0 || (known && (seconds ?? .infinity) > Self.longestWorkout)
                    || (!known && duration > 1e12)
                {
                    return "duration must be a number of seconds between 0 and \(Int(Self.longestWorkout)) (a year)"
                }
            }
            if let energy = workout.totalEnergyBurned,
                let problem = violation(
                    value: energy, unit: workout.totalEnergyBurnedUnit ?? "kcal", type: .activeEnergyBurned)
            {
                return "totalEnergyBurned: " + problem
            }
            if let distance = workout.totalDistance,
                let problem = violation(
                    value: distance, unit: workout.totalDistanceUnit ?? "m",
                    type: SampleType("HKQuantityTypeIdentifierDistanceCycling"))
            {
                return "totalDistance: " + problem
            }
            for statistic in workout.statistics {
                for value in [statistic.average, statistic.minimum, statistic.maximum, statistic.sum].compactMap({ $0 }) {
                    if let problem = violation(value: value, unit: statistic.unit ?? "", type: statistic.type) {
                        return "statistics of \(bounded(statistic.type.identifier, 120)): " + problem
                    }
                }
            }
            return nil
        case .audiogram(let audiogram):
            // Read as a sample's header: a value it carries is checked like any other.
            return violation(of: audiogram.sample)
        default:
            return nil
        }
    }

    /// The longest duration a workout may record, seconds: a year (the longest spans imports
    /// take are shorter).
    public static let longestWorkout: Double = 366 * 86_400

    /// Why `value` in `unit` is implausible for `type`, or `nil`.
    public static func violation(value: Double, unit: String, type: SampleType) -> String? {
        guard value.isFinite else { return "value must be a finite number" }
        // Every sample of every import comes here: one look-up of the row with its unit
        // parsed once, and no message built for a value that passes.
        guard let (range, own) = checks[type.identifier] else {
            return anyQuantity.bounds.contains(value) ? nil : generic(unit: unit, type: type)
        }
        // A unit text that does not parse cannot be compared with the row: the generic bound.
        guard let parsed = try? HealthUnit(parsing: unit), let own else {
            return anyQuantity.bounds.contains(value) ? nil : generic(unit: unit, type: type)
        }
        // A unit of another dimension (a resting heart rate in kg) is no reading of the type:
        // stored, it would hide the type's real readings from every reader that converts.
        guard let converted = try? parsed.convert(value, to: own) else {
            return "unit \(bounded(unit, 40)) is not a unit of \(type.identifier) (\(range.unit) or one convertible to it)"
        }
        if range.bounds.contains(converted) { return nil }
        return "value must be between \(describe(range.bounds.lowerBound)) and \(describe(range.bounds.upperBound)) "
            + "\(range.unit) for \(type.identifier)"
    }

    /// `type`'s bounds in `unit`: for readers that check values already converted (a value
    /// stored before the ranges existed is skipped, never trusted). The generic bounds when
    /// the type has no row or its unit does not convert to `unit`.
    public static func bounds(of type: SampleType, in unit: HealthUnit) -> ClosedRange<Double> {
        guard let range = of(type), let own = try? HealthUnit(parsing: range.unit),
            let low = try? own.convert(range.bounds.lowerBound, to: unit),
            let high = try? own.convert(range.bounds.upperBound, to: unit)
        else { return anyQuantity.bounds }
        return min(low, high)...max(low, high)
    }

    /// Every row of the table, by type identifier (docs/plausible-ranges.md lists the same).
    public static var rows: [(type: SampleType, range: PlausibleRange)] {
        table.sorted { $0.key < $1.key }.map { (SampleType($0.key), $0.value) }
    }

    /// Why a span from `start` to `end` is refused, or `nil`.
    public static func spanViolation(start: Date, end: Date) -> String? {
        if end < start { return "end must not be before start" }
        if end.timeIntervalSince(start) > longestSpan { return "a sample may span at most 31 days" }
        return nil
    }

    /// The message of a value outside ``anyQuantity``: the bounds, the unit and the type.
    static func generic(unit: String, type: SampleType) -> String {
        "value must be between \(describe(anyQuantity.bounds.lowerBound)) and \(describe(anyQuantity.bounds.upperBound)) "
            + "\(bounded(unit, 40)) for \(bounded(type.identifier, 120))"
    }

    /// At most `bytes` bytes of a text a message names (a unit or a type a client wrote): a
    /// grapheme cluster may be any number of bytes long, so the bound is in bytes.
    static func bounded(_ text: String, _ bytes: Int) -> String {
        text.utf8.count <= bytes ? text : String(decoding: text.utf8.prefix(bytes), as: UTF8.self)
    }

    /// Each row of ``table`` with its unit parsed (`nil` if it does not parse).
    static let checks: [String: (PlausibleRange, HealthUnit?)] = table.mapValues { ($0, try? HealthUnit(parsing: $0.unit)) }

    /// A bound as the messages and docs write it: `200000`, `0.5`, `-1e+12`.
    public static func describe(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// One row per type: generous bounds that no real measurement or manual entry passes
    /// (a whole day of steps in one sample, a marathon's energy), in HealthKit's units.
    static let table: [String: PlausibleRange] = {
        let rows: [(String, PlausibleRange)] = [
            ("StepCount", .init(0...200_000, "count")),
            ("FlightsClimbed", .init(0...10_000, "count")),
            ("PushCount", .init(0...200_000, "count")),
            ("SwimmingStrokeCount", .init(0...200_000, "count")),
            ("DistanceWalkingRunning", .init(0...1_000_000, "m")),
            ("DistanceCycling", .init(0...2_000_000, "m")),
            ("DistanceSwimming", .init(0...200_000, "m")),
            ("DistanceWheelchair", .init(0...1_000_000, "m")),
            ("DistanceDownhillSnowSports", .init(0...1_000_000, "m")),
            ("ActiveEnergyBurned", .init(0...50_000, "kcal")),
            ("BasalEnergyBurned", .init(0...50_000, "kcal")),
            ("DietaryEnergyConsumed", .init(0...100_000, "kcal")),
            ("AppleExerciseTime", .init(0...44_640, "min")),
            ("AppleStandTime", .init(0...44_640, "min")),
            ("AppleMoveTime", .init(0...44_640, "min")),
            ("HeartRate", .init(0...400, "count/min")),
            ("RestingHeartRate", .init(0...400, "count/min")),
            ("WalkingHeartRateAverage", .init(0...400, "count/min")),
            ("HeartRateRecoveryOneMinute", .init(0...400, "count/min")),
            ("HeartRateVariabilitySDNN", .init(0...5_000, "ms")),
            ("RespiratoryRate", .init(0...300, "count/min")),
            ("OxygenSaturation", .init(0...1, "%")),
            ("BodyFatPercentage", .init(0...1, "%")),
            ("WalkingAsymmetryPercentage", .init(0...1, "%")),
            ("WalkingDoubleSupportPercentage", .init(0...1, "%")),
            ("BodyMass", .init(0...1_000, "kg")),
            ("LeanBodyMass", .init(0...1_000, "kg")),
            ("Height", .init(0...3, "m")),
            ("WaistCircumference", .init(0...5, "m")),
            ("BodyMassIndex", .init(0...500, "count")),
            ("BodyTemperature", .init(0...60, "degC")),
            ("BasalBodyTemperature", .init(0...60, "degC")),
            ("AppleSleepingWristTemperature", .init(-100...100, "degC")),
            ("BloodPressureSystolic", .init(0...400, "mmHg")),
            ("BloodPressureDiastolic", .init(0...400, "mmHg")),
            ("BloodGlucose", .init(0...5_000, "mg/dL")),
            ("VO2Max", .init(0...150, "mL/(kg·min)")),
            ("DietaryWater", .init(0...100, "L")),
            ("WalkingSpeed", .init(0...50, "m/s")),
            ("RunningSpeed", .init(0...50, "m/s")),
            ("WalkingStepLength", .init(0...5, "m")),
            ("SixMinuteWalkTestDistance", .init(0...10_000, "m")),
            ("EnvironmentalAudioExposure", .init(0...200, "dBASPL")),
            ("HeadphoneAudioExposure", .init(0...200, "dBASPL")),
            ("TimeInDaylight", .init(0...44_640, "min")),
        ]
        return Dictionary(uniqueKeysWithValues: rows.map { ("HKQuantityTypeIdentifier" + $0.0, $0.1) })
    }()
}
