import Foundation
import HealthCore

extension SyntheticExport {
    /// Who measures heart rate, resting HR and HRV: the Watch, or the no-watch persona's ring.
    var heartSensor: (source: (String, String), kind: RecordEmitter.DeviceKind) {
        configuration.persona == .watch
            ? (source: RecordEmitter.watchSource, kind: RecordEmitter.DeviceKind.watch)
            : (source: RecordEmitter.ringSource, kind: RecordEmitter.DeviceKind.ring)
    }

    /// The morning's resting HR (over the whole day, as Apple writes it) and three HRV
    /// readings through the night, with the Watch's instantaneous beats.
    func writeNightVitals(_ plan: DayPlan, _ emit: RecordEmitter) {
        let zone = [(MetadataEntry.timeZoneKey, plan.zone.identifier)]
        let (source, kind) = heartSensor
        emit.record(
            "HKQuantityTypeIdentifierRestingHeartRate", source: source, device: emit.device(kind),
            unit: "count/min", value: String(55 + emit.rng.int(-2...2) + plan.restingHRRise), start: plan.dayStart,
            end: plan.dayEnd.addingTimeInterval(-1)
        )
        for index in 0..<3 {
            let start = plan.bedtime.addingTimeInterval(Double(index + 1) * plan.wake.timeIntervalSince(plan.bedtime) / 4)
            let end = start.addingTimeInterval(60)
            var beats: [(Date, Double)] = []
            var time = start.addingTimeInterval(2)
            while time < end, beats.count < 12 {
                let bpm = emit.rng.uniform(50...62)
                beats.append((time, bpm))
                time = time.addingTimeInterval(60 / bpm)
            }
            emit.record(
                "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", source: source,
                device: emit.device(kind), unit: "ms", value: (emit.rng.uniform(35...75) * plan.hrvFactor).fixed(4),
                start: start, end: end,
                metadata: zone, beats: kind == .watch ? beats : [])
        }
    }

    /// The night that ends on the plan's morning and the day's nap, as its sources write
    /// them (``DayPlan/NightSource``). Every night the iPhone's bedtime schedule writes time
    /// in bed, from 10 minutes before bed to 5 after waking, with `HKTimeZone`.
    func writeSleep(_ plan: DayPlan, _ emit: RecordEmitter) {
        let type = "HKCategoryTypeIdentifierSleepAnalysis"
        let zone = [(MetadataEntry.timeZoneKey, plan.zone.identifier)]
        let inBed = { () in
            emit.record(
                type, source: RecordEmitter.phoneSource, device: emit.device(watch: false), unit: nil,
                value: "HKCategoryValueSleepAnalysisInBed", start: plan.inBed.start, end: plan.inBed.end, metadata: zone)
        }
        guard plan.nightSource == .watch else {
            inBed()
            writeTrackerSleep(plan, emit)
            return
        }
        for stage in plan.stages + plan.nap {
            emit.record(
                type, source: RecordEmitter.watchSource, device: emit.device(watch: true), unit: nil, value: stage.value,
                start: stage.start, end: stage.end, metadata: zone)
        }
        // The iPhone's bedtime schedule writes in-bed; a third-party app writes its own night.
        inBed()
        let onset = (plan.stages.first?.start ?? plan.bedtime).addingTimeInterval(180)
        let end = (plan.stages.last?.end ?? plan.wake).addingTimeInterval(-120)
        let middle = onset.addingTimeInterval(end.timeIntervalSince(onset) * emit.rng.uniform(0.4...0.6))
        for (start, stop) in [(onset, middle), (middle.addingTimeInterval(600), end)] where stop > start {
            emit.record(
                type, source: ("AutoSleep", "7.4"), device: nil, unit: nil,
                value: "HKCategoryValueSleepAnalysisAsleepUnspecified",
                start: start, end: stop)
        }
    }

    /// The no-watch persona's night: the ring's stages, or the mat's asleep and awake
    /// stretches (no stages), or nothing on a charging night; and the ring's nap.
    private func writeTrackerSleep(_ plan: DayPlan, _ emit: RecordEmitter) {
        let type = "HKCategoryTypeIdentifierSleepAnalysis"
        switch plan.nightSource {
        case .ringStages:
            for stage in plan.stages {
                emit.record(
                    type, source: RecordEmitter.ringSource, device: emit.device(.ring), unit: nil, value: stage.value,
                    start: stage.start, end: stage.end)
            }
        case .matAsleep:
            var runs: [(start: Date, end: Date, asleep: Bool)] = []
            for stage in plan.stages {
                let asleep = stage.value != DayPlan.stageValues.awake
                if let last = runs.last, last.asleep == asleep, last.end == stage.start {
                    runs[runs.count - 1].end = stage.end
                } else {
                    runs.append((start: stage.start, end: stage.end, asleep: asleep))
                }
            }
            for run in runs {
                emit.record(
                    type, source: RecordEmitter.matSource, device: emit.device(.mat), unit: nil,
                    value: run.asleep ? "HKCategoryValueSleepAnalysisAsleepUnspecified" : DayPlan.stageValues.awake,
                    start: run.start, end: run.end)
            }
        case .watch, .phoneInBed:
            break
        }
        for stage in plan.nap {
            emit.record(
                type, source: RecordEmitter.ringSource, device: emit.device(.ring), unit: nil, value: stage.value,
                start: stage.start, end: stage.end)
        }
    }
}
