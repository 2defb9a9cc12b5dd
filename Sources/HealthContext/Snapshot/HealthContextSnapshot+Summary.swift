import Foundation
import HealthCore
import HealthDaily

extension HealthContextSnapshot {
    /// A short summary for people (and prompts): one line per area, local clock times,
    /// `—` for what is missing, then the reasons.
    public var summary: String {
        let v = values
        func number(_ value: Double?, _ digits: Int, _ unit: String) -> String? {
            value.map { String(format: "%.\(digits)f", $0) + unit }
        }
        func line(_ label: String, _ parts: [String?]) -> String {
            let shown = parts.map { $0 ?? "—" }
            return label.padding(toLength: 12, withPad: " ", startingAt: 0) + shown.joined(separator: " · ")
        }
        func rating(_ name: String, _ value: Int?) -> String { "\(name) " + (value.map { "\($0)/5" } ?? "—") }
        let clock = { (instant: Date?) in instant.map { ClockTime.format($0, in: self.timezone) } }
        var lines = [
            "Snapshot \(date) \(ClockTime.format(timestamp, in: timezone)) \(timezone.identifier)",
            line(
                "Feeling",
                [
                    rating("energy", v.subjectiveEnergyLevel), rating("mood", v.subjectiveMood),
                    rating("stress", v.subjectiveStress),
                ]),
            line("Weather", [v.currentWeatherCondition, number(v.currentTemperatureCelsius, 1, " °C")]),
            line(
                "Vitals",
                [
                    "resting HR " + (number(v.restingHeartRateBPM, 0, " bpm") ?? "—"),
                    "HRV " + (number(v.heartRateVariabilitySDNNms, 1, " ms") ?? "—"),
                ]),
            line(
                "Today",
                [
                    (v.stepCountToday.map { "\($0) steps" }), number(v.activeEnergyBurnedTodayKcal, 0, " kcal active"),
                    v.exerciseMinutesToday.map { "\($0) min exercise" }, v.standHoursToday.map { "\($0) stand hours" },
                ]),
            line(
                "Last night",
                [
                    number(v.lastNightSleepDurationHours, 2, " h asleep"),
                    number(v.lastNightSleepEfficiencyPercentage, 1, " % efficient"),
                    "bed " + (clock(v.lastNightBedtime) ?? "—"), "up " + (clock(v.lastNightWaketime) ?? "—"),
                ]),
            line("Body", [number(v.latestBodyWeightKg, 1, " kg"), number(v.latestBodyFatPercentage, 1, " % body fat")]),
            line(
                "App",
                [
                    "in progress: " + (v.activeWorkoutNameInProgress ?? "—"),
                    "next: " + (v.upcomingPlannedWorkoutName ?? "—"),
                    "coach " + (v.timeSinceLastCoachInteractionMinutes.map { "\($0) min ago" } ?? "—"),
                ]),
            line("Last meal", [v.lastMealLogged]),
        ]
        if !missing.isEmpty {
            lines.append("Missing:")
            // One line per reason, listing the fields it explains.
            var order: [String] = []
            var fields: [String: [String]] = [:]
            for part in missing {
                let key = "\(part.provider): \(part.reason)"
                if fields[key] == nil { order.append(key) }
                fields[key, default: []].append(part.field)
            }
            for key in order { lines.append("  \(fields[key]!.joined(separator: ", ")) — \(key)") }
        }
        return lines.joined(separator: "\n")
    }
}
