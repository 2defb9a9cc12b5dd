import Foundation
import HealthCore

/// The acute:chronic workload ratio of a person's workouts: how the last week's training
/// compares with the last four weeks'.
///
/// A day's load is the sum over the workouts that start on it (in the reader's zone) of
/// their active energy (kcal) or their minutes. The acute load is the mean daily load of the
/// 7 days ending `through`, the chronic load the mean over the 28 days ending `through` —
/// the acute week included ("coupled", as the readiness score's activity contributor; Hulin
/// et al. 2014, Gabbett 2016) — and the ratio is acute ÷ chronic. Days before the data
/// begins are not zeros: the chronic mean counts only the days the data covers and needs 21
/// of them, the acute mean all 7. Bands: below 0.8 low (less than usual), 0.8–1.3 the
/// "sweet spot", 1.3–1.5 caution, above 1.5 high (a spike linked with injury risk in team
/// sports; the ratio's limits are discussed by Impellizzeri et al. 2020).
///
/// ```swift
/// // 400 kcal on each of the 28 days: acute 400, chronic 400, ratio 1.0, sweet spot.
/// TrainingLoad(basis: .energy, through: day, loads: loads, dataSince: day.adding(days: -60))
/// ```
public struct TrainingLoad: Sendable, Equatable {
    /// What a workout's load is measured in.
    public enum Basis: String, Sendable, CaseIterable {
        /// Active energy, kcal.
        case energy
        /// Minutes.
        case duration
    }

    public enum Band: String, Sendable {
        case low
        case sweetSpot = "sweet_spot"
        case caution
        case high
    }

    /// One day's load and the workouts that made it.
    public struct Day: Sendable, Equatable {
        public var date: LocalDate
        public var load: Double
        public var workouts: Int
    }

    public static let acuteDays = 7
    public static let chronicDays = 28
    /// The days of the chronic window the data must cover for a chronic mean.
    public static let minimumChronicDays = 21

    public var basis: Basis
    /// The last day of both windows.
    public var through: LocalDate
    /// The chronic window's days, oldest first.
    public var days: [Day]
    /// The days of the chronic window on or after the day the data begins.
    public var coveredDays: Int
    /// Mean daily load of the last 7 days; `nil` when the data does not cover them all.
    public var acute: Double?
    /// Mean daily load of the covered days of the last 28; `nil` under 21 covered days.
    public var chronic: Double?
    /// acute ÷ chronic; `nil` without both, or with no chronic load.
    public var ratio: Double?
    public var band: Band?

    /// The load through `through` of `loads` (a workout's day and load each; a load that is
    /// negative or not finite is left out), the data beginning on `dataSince` (`nil`: no data).
    public init(basis: Basis, through: LocalDate, loads: [(day: LocalDate, load: Double)], dataSince: LocalDate?) {
        self.basis = basis
        self.through = through
        let first = through.adding(days: -(Self.chronicDays - 1))
        var days = (0..<Self.chronicDays).map { Day(date: first.adding(days: $0), load: 0, workouts: 0) }
        for (day, load) in loads where load.isFinite && load >= 0 && day >= first && day <= through {
            days[day.dayNumber - first.dayNumber].load += load
            days[day.dayNumber - first.dayNumber].workouts += 1
        }
        self.days = days
        let covered = dataSince.map { since in days.filter { $0.date >= since } } ?? []
        coveredDays = covered.count
        let week = days.suffix(Self.acuteDays)
        acute = covered.count >= Self.acuteDays ? week.reduce(0) { $0 + $1.load } / Double(Self.acuteDays) : nil
        chronic =
            covered.count >= Self.minimumChronicDays ? covered.reduce(0) { $0 + $1.load } / Double(covered.count) : nil
        if let acute, let chronic, chronic > 0 {
            let ratio = acute / chronic
            self.ratio = ratio
            band = ratio < 0.8 ? .low : ratio <= 1.3 ? .sweetSpot : ratio <= 1.5 ? .caution : .high
        }
    }
}
