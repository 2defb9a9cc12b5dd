import Foundation
import Testing

@testable import HealthCore

/// `PlausibilityCheck` keeps the rows of the pairs of type and unit it saw with their
/// conversions worked out: it must answer exactly as `PlausibleRange.violation` for every
/// value, unit and type, in any order, on the edges of every row.
@Suite struct I37PlausibilityCheckTests {
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Units of every row's dimension and a few of none, so that pairs of another dimension,
    /// unknown units and temperatures (an offset) come up.
    static let units = [
        "count", "km", "mi", "m", "yd", "cm", "ft", "in", "kcal", "Cal", "kJ", "min", "hr", "s", "count/min", "ms",
        "%", "kg", "lb", "g", "degC", "degF", "mmHg", "mg/dL", "mmol<180.1558800000541>/L", "mL/(kg·min)",
        "mL/min·kg", "mL", "L", "fl_oz_us", "km/hr", "mi/hr", "m/s", "dBASPL", "", "furlong",
    ]

    /// Every row's type, one without a row and one unknown to HealthKit.
    static let types =
        PlausibleRange.rows.map(\.type) + [SampleType("HKQuantityTypeIdentifierUVExposure"), SampleType("Made-up")]

    /// The units of `units` of the dimension of `type`'s row.
    static func units(of type: SampleType) -> [String] {
        guard let row = PlausibleRange.of(type), let own = try? HealthUnit(parsing: row.unit) else { return [] }
        return units.filter { (try? HealthUnit(parsing: $0))?.dimension == own.dimension }
    }

    /// Values on and beside the edges of `type`'s row in `unit`, and anywhere else.
    static func value(for type: SampleType, in unit: String, _ random: inout SplitMix) -> Double {
        let range = PlausibleRange.of(type) ?? PlausibleRange.anyQuantity
        let own = try? HealthUnit(parsing: range.unit)
        let parsed = try? HealthUnit(parsing: unit)
        let edge = [range.bounds.lowerBound, range.bounds.upperBound].randomElement(using: &random)!
        let edgeHere = own.flatMap { own in parsed.flatMap { try? own.convert(edge, to: $0) } } ?? edge
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return edgeHere
        case 1: return edgeHere.nextUp
        case 2: return edgeHere.nextDown
        case 3: return edgeHere * (1 + Double.random(in: -1e-9...1e-9, using: &random))
        case 4: return [.nan, .infinity, -.infinity, 1e300, -1e300, 0, -0.0].randomElement(using: &random)!
        default: return Double.random(in: -1.2...1.2, using: &random) * abs(edgeHere == 0 ? 1 : edgeHere)
        }
    }

    @Test func answersAsTheTableForAnySequence() {
        var random = SplitMix(state: 37)
        var check = PlausibilityCheck()
        var (refused, passed) = (0, 0)
        // Runs of one pair, a few pairs alternating (a watch's samples), and any pair.
        var recent: [(SampleType, String)] = []
        for _ in 0..<200_000 {
            let pair: (SampleType, String)
            if !recent.isEmpty, Int.random(in: 0..<4, using: &random) > 0 {
                pair = recent.randomElement(using: &random)!
            } else {
                let type = Self.types.randomElement(using: &random)!
                let own = Self.units(of: type)
                let unit =
                    own.isEmpty || Int.random(in: 0..<4, using: &random) == 0
                    ? Self.units.randomElement(using: &random)! : own.randomElement(using: &random)!
                pair = (type, unit)
                recent = Array((recent + [pair]).suffix(Int.random(in: 1...12, using: &random)))
            }
            let value = Self.value(for: pair.0, in: pair.1, &random)
            let expected = PlausibleRange.violation(value: value, unit: pair.1, type: pair.0)
            let answer = check.violation(value: value, unit: pair.1, type: pair.0)
            #expect(answer == expected, "\(pair.0.identifier) \(value) \(pair.1)")
            if answer != expected { return }
            if expected == nil { passed += 1 } else { refused += 1 }
        }
        // Both answers come up often: the sequence tests the kept rows, not only the table.
        #expect(passed > 50_000 && refused > 20_000, "passed \(passed), refused \(refused)")
    }

    @Test func aRecordIsCheckedAsTheTableChecksIt() {
        var check = PlausibilityCheck()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func steps(_ value: Double, _ unit: String = "count") -> HealthRecord {
            .sample(
                Sample(
                    type: .stepCount, start: start, end: start, value: .quantity(value, unit: unit),
                    source: Source(name: "Watch")))
        }
        let workout = Workout(
            activityType: "HKWorkoutActivityTypeRunning", start: start, end: start, duration: -1, source: Source(name: "W"))
        let records: [HealthRecord] = [
            steps(10), steps(200_000), steps(200_000.0.nextUp), steps(10), steps(3, "kg"), steps(.nan),
            .sample(
                Sample(type: .sleepAnalysis, start: start, end: start, value: .category("asleep"), source: Source(name: "W"))),
            .workout(workout), steps(-1), steps(5),
        ]
        for record in records {
            #expect(check.violation(of: record) == PlausibleRange.violation(of: record))
        }
        #expect(check.violation(of: steps(200_000.0.nextUp)) != nil)
        #expect(check.violation(of: steps(200_000)) == nil)
    }
}
