import Foundation
import HealthCore
import Testing

@testable import HealthDaily

/// Issue 35 §5: the acute:chronic workload ratio from workouts, by hand.
@Suite struct I35TrainingLoadTests {
    static let through = LocalDate("2024-03-28")!
    static func day(_ offset: Int) -> LocalDate { through.adding(days: -offset) }

    @Test func aHeavierLastWeekIsCaution() {
        // 400 kcal on each of the first 21 days, 700 on each of the last 7: acute 700,
        // chronic (21 × 400 + 7 × 700) / 28 = 475, ratio 700 / 475 = 1.4737 (1.3–1.5: caution).
        let loads = (0..<28).map { (day: Self.day($0), load: $0 < 7 ? 700.0 : 400.0) }
        let load = TrainingLoad(basis: .energy, through: Self.through, loads: loads, dataSince: Self.day(100))
        #expect(load.acute == 700 && load.chronic == 475)
        #expect(load.ratio == 700.0 / 475.0 && load.band == .caution)
        #expect(load.coveredDays == 28 && load.days.count == 28)
        #expect(load.days.first?.date == LocalDate("2024-03-01") && load.days.last?.date == Self.through)
    }

    @Test func workoutsOfADayAddUpAndBadLoadsAreLeftOut() {
        // Day 0: 60 + 30 minutes; day 10: 45; a NaN, a negative and one outside the window ignored.
        let loads: [(day: LocalDate, load: Double)] = [
            (Self.day(0), 60), (Self.day(0), 30), (Self.day(10), 45), (Self.day(3), .nan), (Self.day(4), -20),
            (Self.day(28), 500), (Self.through.adding(days: 1), 500),
        ]
        let load = TrainingLoad(basis: .duration, through: Self.through, loads: loads, dataSince: Self.day(27))
        #expect(load.days.last?.load == 90 && load.days.last?.workouts == 2)
        #expect(load.acute == 90.0 / 7 && load.chronic == 135.0 / 28)
        // (90 / 7) / (135 / 28) = 2.667: a spike.
        #expect(load.ratio == (90.0 / 7) / (135.0 / 28) && load.band == .high)
    }

    @Test func daysBeforeTheDataAreNotZeros() {
        let loads = (0..<28).map { (day: Self.day($0), load: 300.0) }
        // The data begins 20 days back: 20 covered days, too few for a chronic mean.
        let short = TrainingLoad(basis: .energy, through: Self.through, loads: loads, dataSince: Self.day(19))
        #expect(short.coveredDays == 20 && short.acute == 300 && short.chronic == nil && short.ratio == nil)
        // 22 covered days: the chronic mean is theirs, not diluted by the 6 before.
        let enough = TrainingLoad(basis: .energy, through: Self.through, loads: loads, dataSince: Self.day(21))
        #expect(enough.chronic == 300 && enough.ratio == 1 && enough.band == .sweetSpot)
        // 3 covered days: not even an acute mean.
        let new = TrainingLoad(basis: .energy, through: Self.through, loads: loads, dataSince: Self.day(2))
        #expect(new.acute == nil && new.ratio == nil)
        #expect(TrainingLoad(basis: .energy, through: Self.through, loads: loads, dataSince: nil).coveredDays == 0)
    }

    @Test func bandsAndAnEmptyMonth() {
        func ratio(acute: Double, rest: Double) -> TrainingLoad {
            let loads = (0..<28).map { (day: Self.day($0), load: $0 < 7 ? acute : rest) }
            return TrainingLoad(basis: .duration, through: Self.through, loads: loads, dataSince: Self.day(40))
        }
        // acute 10, chronic (70 + 21 × 40) / 28 = 32.5: 0.31, low.
        #expect(ratio(acute: 10, rest: 40).band == .low)
        #expect(ratio(acute: 40, rest: 40).band == .sweetSpot)
        let empty = ratio(acute: 0, rest: 0)
        #expect(empty.acute == 0 && empty.chronic == 0 && empty.ratio == nil && empty.band == nil)
    }
}
