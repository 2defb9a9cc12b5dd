import Foundation

/// Everything that happens on one local day of the synthetic person, generated from the
/// seed and the day's index alone, so that each record family can be written in its own
/// pass (exports are ordered by type) without holding more than a day in memory.
struct DayPlan {
    struct Bout {
        var start: Date
        var end: Date
        var steps: Int
        /// The part of the bout with the Watch on the wrist (a bout can begin before the Watch
        /// goes on or end after it comes off); `nil` when it was off throughout.
        var watchSpan: DateInterval?
        var phone: Bool
        /// A wearable that is not a Watch (the no-watch persona's Garmin) saw all of it.
        var tracker = false

        var watch: Bool { watchSpan != nil }

        /// Steps the Watch saw: the bout's steps in proportion to the worn part.
        var watchSteps: Int {
            guard let watchSpan else { return 0 }
            return Int((Double(steps) * watchSpan.duration / end.timeIntervalSince(start)).rounded())
        }

        /// Steps the iPhone wrote for the bout when carried: 96 % of them.
        var phoneSteps: Int { phone ? Int((Double(steps) * 0.96).rounded()) : 0 }

        /// Steps the devices could report: each part of the bout at the count of the best
        /// device that saw it — all of the worn part (Watch) or of the bout (tracker), and
        /// the iPhone's 96 % for the rest, spread evenly as its samples are.
        var observableSteps: Double {
            if tracker { return Double(steps) }
            let unworn = 1 - (watchSpan?.duration ?? 0) / end.timeIntervalSince(start)
            return Double(watchSteps) + Double(phoneSteps) * unworn
        }
    }

    struct SleepStage {
        var start: Date
        var end: Date
        var value: String
    }

    let index: Int
    let zone: TimeZone
    let dayStart: Date
    let dayEnd: Date
    let localDate: String
    var bouts: [Bout] = []
    /// When the Watch was on the wrist (awake hours; it is also worn through the night).
    var watchWorn: [(Date, Date)] = []
    /// What recorded the night that ends on this morning.
    var nightSource = NightSource.watch
    /// The night that ends on this morning.
    var bedtime = Date()
    var wake = Date()
    var stages: [SleepStage] = []
    var nap: [SleepStage] = []
    var workout: (start: Date, end: Date)?
    var weighIn = false
    var bloodPressure = false
    /// What the strain schedule did to this day (see ``Strain``); empty on ordinary days.
    var strain: [Strain] = []

    /// A strain episode: a hard, long workout on the load day, then a short night, an HRV
    /// dip and a raised resting HR the morning after, half of that the day after, and back
    /// to normal on the third day. Readiness should drop on the two days after the load.
    enum Strain: String {
        case highLoad = "high_load"
        case shortSleep = "short_sleep"
        case hrvDip = "hrv_dip"
        case restingHRRise = "resting_hr_rise"
    }

    /// Days since the last load day: 1 the morning after, 2 the day after; 0 otherwise.
    var daysAfterLoad = 0

    /// The HRV multiplier of the strain schedule.
    var hrvFactor: Double { [0: 1, 1: 0.72, 2: 0.85][daysAfterLoad] ?? 1 }

    /// Beats per minute added to the resting HR by the strain schedule.
    var restingHRRise: Int { [0: 0, 1: 7, 2: 3][daysAfterLoad] ?? 0 }

    static let stageValues = (
        core: "HKCategoryValueSleepAnalysisAsleepCore", deep: "HKCategoryValueSleepAnalysisAsleepDeep",
        rem: "HKCategoryValueSleepAnalysisAsleepREM", awake: "HKCategoryValueSleepAnalysisAwake"
    )

    /// True asleep seconds of the main night.
    var asleepSeconds: Double {
        stages.filter { $0.value != DayPlan.stageValues.awake }.reduce(0) { $0 + $1.end.timeIntervalSince($1.start) }
    }

    var napSeconds: Double { nap.reduce(0) { $0 + $1.end.timeIntervalSince($1.start) } }

    /// Time in bed as the iPhone's bedtime schedule writes it: from 10 minutes before bed to
    /// 5 minutes after waking.
    var inBed: (start: Date, end: Date) { (start: bedtime.addingTimeInterval(-600), end: wake.addingTimeInterval(300)) }

    /// The Watch's exercise minutes: each whole minute of the worn part of bouts of 10
    /// minutes or more.
    var exerciseMinutes: [Date] {
        bouts.filter { $0.end.timeIntervalSince($0.start) >= 600 }.compactMap(\.watchSpan).flatMap { span in
            (0..<Int(span.duration / 60)).map { span.start.addingTimeInterval(Double($0) * 60) }
        }
    }

    /// The Watch's stand hours: every clock hour it was worn in, and whether a bout (with the
    /// Watch on) moved the wearer in it.
    var standHours: [(start: Date, stood: Bool)] {
        var hours: [Int: Bool] = [:]
        for (on, off) in watchWorn {
            var hour = Int((on.timeIntervalSince1970 / 3600).rounded(.down))
            while Double(hour) * 3600 < off.timeIntervalSince1970 {
                hours[hour] = hours[hour] ?? false
                hour += 1
            }
        }
        for span in bouts.compactMap(\.watchSpan) {
            var hour = Int((span.start.timeIntervalSince1970 / 3600).rounded(.down))
            while Double(hour) * 3600 < span.end.timeIntervalSince1970 {
                if hours[hour] != nil { hours[hour] = true }
                hour += 1
            }
        }
        return hours.keys.sorted().map { (Date(timeIntervalSince1970: Double($0) * 3600), hours[$0]!) }
    }

    /// Breakfast, lunch and dinner logged in a food app: local time, name, kcal.
    var meals: [(time: Date, meal: String, food: String, kcal: Double)] {
        let lunch = dayStart.addingTimeInterval(12.5 * 3600 + Double(index % 5) * 360)
        let dinner = dayStart.addingTimeInterval(19 * 3600 + Double(index % 7) * 300)
        return [
            (wake.addingTimeInterval(2700), "Breakfast", ["Oatmeal", "Greek yogurt, honey"][index % 2], 420),
            (lunch, "Lunch", ["Chicken salad", "Lentil soup", "Tuna sandwich"][index % 3], 640),
            (dinner, "Dinner", ["Salmon, rice", "Pasta \"al pomodoro\"", "Tofu curry"][index % 3], 780),
        ]
    }
}

extension DayPlan {
    /// Builds day `index` of a generation.
    static func make(index: Int, generation: SyntheticExport) -> DayPlan {
        let zone = generation.zone(forDay: index)
        let (dayStart, dayEnd, localDate) = generation.localDay(index, in: zone)
        var plan = DayPlan(index: index, zone: zone, dayStart: dayStart, dayEnd: dayEnd, localDate: localDate)
        let loadDay = generation.isLoadDay(index)
        plan.daysAfterLoad = generation.isLoadDay(index - 1) ? 1 : generation.isLoadDay(index - 2) ? 2 : 0
        plan.strain =
            (loadDay ? [.highLoad] : [])
            + (plan.daysAfterLoad == 1 ? [.shortSleep, .hrvDip, .restingHRRise] : [])
            + (plan.daysAfterLoad == 2 ? [.hrvDip, .restingHRRise] : [])
        var sleepRNG = generation.rng(day: index, stream: 1)
        (plan.bedtime, plan.wake, plan.stages) = night(
            dayStart: dayStart, rng: &sleepRNG, lateNight: index % 9 == 4, short: plan.daysAfterLoad == 1)
        let nextBedtime: Date = {
            guard index + 1 < generation.configuration.days else { return dayEnd.addingTimeInterval(-3600) }
            var next = generation.rng(day: index + 1, stream: 1)
            let nextZone = generation.zone(forDay: index + 1)
            return night(
                dayStart: generation.localDay(index + 1, in: nextZone).start, rng: &next, lateNight: (index + 1) % 9 == 4,
                short: loadDay
            ).bed
        }()
        var rng = generation.rng(day: index, stream: 0)
        // The Watch goes on 20–60 min after waking (phone-only mornings), off 15 min before bed,
        // and charges for an hour on most evenings.
        let watchOn = plan.wake.addingTimeInterval(rng.uniform(1200...3600))
        let watchOff = nextBedtime.addingTimeInterval(-900)
        // (Never on a load day: the Watch records the whole hard session.)
        if rng.chance(0.7), !loadDay, watchOff.timeIntervalSince(watchOn) > 6 * 3600 {
            let chargeStart = watchOff.addingTimeInterval(-rng.uniform(7200...14400))
            plan.watchWorn = [(watchOn, chargeStart), (chargeStart.addingTimeInterval(3600), watchOff)]
        } else {
            plan.watchWorn = [(watchOn, watchOff)]
        }
        func worn(_ time: Date) -> Bool { plan.watchWorn.contains { $0.0 <= time && time < $0.1 } }
        // A bout may start before the Watch goes on or run past its coming off: the Watch
        // then sees only the worn part, the iPhone (carried) the whole bout.
        // Walking bouts between waking and bed, kept inside the local day.
        let activityEnd = min(nextBedtime.addingTimeInterval(-1800), dayEnd.addingTimeInterval(-600))
        var cursor = plan.wake.addingTimeInterval(rng.uniform(300...900))
        while cursor < activityEnd {
            let length = rng.uniform(180...1500)
            let end = min(cursor.addingTimeInterval(length), activityEnd)
            guard end > cursor.addingTimeInterval(60) else { break }
            let boutStart = cursor
            let span = plan.watchWorn.compactMap { on, off -> DateInterval? in
                let lower = max(on, boutStart)
                let upper = min(off, end)
                return upper.timeIntervalSince(lower) >= 60 ? DateInterval(start: lower, end: upper) : nil
            }.max { $0.duration < $1.duration }
            let wornThroughout = span?.duration == end.timeIntervalSince(cursor)
            let phone = !wornThroughout || rng.chance(0.75)
            let steps = Int(end.timeIntervalSince(cursor) / 60 * rng.uniform(55...110))
            plan.bouts.append(Bout(start: cursor, end: end, steps: steps, watchSpan: span, phone: phone))
            cursor = end.addingTimeInterval(rng.uniform(900...4500))
        }
        // Workouts on three days a week, 18:00 local, Watch on; a load day's is 100–130 min
        // from 17:00.
        if [0, 2, 5].contains(index % 7) || loadDay {
            let start = dayStart.addingTimeInterval((loadDay ? 17 : 18) * 3600 + rng.uniform(0...1800))
            let end = start.addingTimeInterval(loadDay ? rng.uniform(6000...7800) : rng.uniform(1800...3000))
            if end < activityEnd, worn(start) {
                plan.workout = (start, end)
                plan.bouts.removeAll { $0.end > start && $0.start < end }
                plan.bouts.append(
                    Bout(
                        start: start, end: end, steps: Int(end.timeIntervalSince(start) / 60 * 160),
                        watchSpan: DateInterval(start: start, end: end), phone: false))
                plan.bouts.sort { $0.start < $1.start }
            }
        }
        if rng.chance(0.12) {
            let start = dayStart.addingTimeInterval(14 * 3600 + rng.uniform(0...3600))
            let middle = start.addingTimeInterval(rng.uniform(600...1200))
            let end = middle.addingTimeInterval(rng.uniform(600...1200))
            if !plan.bouts.contains(where: { $0.end > start && $0.start < end }), plan.workout.map({ $0.start > end }) ?? true {
                plan.nap = [
                    SleepStage(start: start, end: middle, value: stageValues.core),
                    SleepStage(start: middle, end: end, value: stageValues.core),
                ]
            }
        }
        plan.weighIn = index % 3 == 0
        plan.bloodPressure = index % 7 == 6
        if generation.configuration.persona == .noWatch { plan.removeTheWatch(generation: generation) }
        return plan
    }

    /// The night ending on the morning of the day that starts at `dayStart`: bedtime 22:30
    /// to 00:45 (01:10 on late nights), wake 06:30–07:45, stages in 5–40 min segments. A
    /// short night (after a load day) runs from 00:50–01:20 to 06:10–06:30.
    static func night(
        dayStart: Date, rng: inout SplitMix, lateNight: Bool, short: Bool
    ) -> (bed: Date, wake: Date, stages: [SleepStage]) {
        var bed = dayStart.addingTimeInterval(lateNight ? rng.uniform(1200...4200) : rng.uniform(-5400...2700))
        var wake = dayStart.addingTimeInterval(rng.uniform(23400...27900))
        if short {
            bed = dayStart.addingTimeInterval(rng.uniform(3000...4800))
            wake = dayStart.addingTimeInterval(rng.uniform(22200...23400))
        }
        var stages: [SleepStage] = []
        var cursor = bed.addingTimeInterval(rng.uniform(300...1200))
        let end = wake.addingTimeInterval(-rng.uniform(0...300))
        var cycle = 0
        while cursor < end {
            let roll = rng.uniform(0...1)
            let value: String
            let length: Double
            switch (cycle % 4, roll) {
            case (_, ..<0.08):
                value = stageValues.awake
                length = rng.uniform(120...600)
            case (0, _), (2, _):
                value = stageValues.core
                length = rng.uniform(900...2400)
            case (1, _):
                value = stageValues.deep
                length = rng.uniform(600...1800)
            default:
                value = stageValues.rem
                length = rng.uniform(600...1500)
            }
            let stageEnd = min(cursor.addingTimeInterval(length), end)
            stages.append(SleepStage(start: cursor, end: stageEnd, value: value))
            cursor = stageEnd
            cycle += 1
        }
        return (bed, wake, stages)
    }
}
