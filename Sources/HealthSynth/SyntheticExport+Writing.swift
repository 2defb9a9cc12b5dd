import Foundation
import HealthCore
import ZIPFoundation

extension SyntheticExport {
    /// Writes the export to `url` — a `.zip` (an `apple_health_export/` folder with
    /// `export.xml` and `workout-routes/`) or a bare `.xml` (routes in `workout-routes/`
    /// beside it) — and the ground truth to `url` with `.truth.json` in place of its
    /// extension. Returns the ground truth.
    @discardableResult
    public func write(to url: URL, progress: (@Sendable (Int) -> Void)? = nil) async throws -> GroundTruth {
        try await BlockingWork.run("healthpipe-synth") { try self.write(to: url, progress: progress) }
    }

    /// Writes the export and its ground truth as the `async` ``write(to:progress:)`` does,
    /// on the calling thread.
    @discardableResult
    public func write(to url: URL, progress: ((Int) -> Void)? = nil) throws -> GroundTruth {
        let manager = FileManager.default
        let isZip = url.pathExtension.lowercased() == "zip"
        let staging =
            isZip
            ? manager.temporaryDirectory.appendingPathComponent("healthpipe-synth-\(UUID().uuidString)/apple_health_export")
            : url.deletingLastPathComponent()
        let routes = staging.appendingPathComponent("workout-routes")
        try manager.createDirectory(at: routes, withIntermediateDirectories: true)
        defer { if isZip { try? manager.removeItem(at: staging.deletingLastPathComponent()) } }
        let xmlURL = isZip ? staging.appendingPathComponent("export.xml") : url
        var truth = try writeXML(to: xmlURL, routes: routes, progress: progress)
        if isZip {
            try? manager.removeItem(at: url)
            let archive = try Archive(url: url, accessMode: .create)
            let folder = staging.deletingLastPathComponent()
            try archive.addEntry(with: "apple_health_export/export.xml", relativeTo: folder, compressionMethod: .deflate)
            for name in try manager.contentsOfDirectory(atPath: routes.path).sorted() {
                try archive.addEntry(
                    with: "apple_health_export/workout-routes/" + name, relativeTo: folder, compressionMethod: .deflate)
            }
        }
        truth.seed = configuration.seed
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(truth).write(to: url.deletingPathExtension().appendingPathExtension("truth.json"))
        return truth
    }

    private func writeXML(to url: URL, routes: URL, progress: ((Int) -> Void)?) throws -> GroundTruth {
        let out = try XMLOutput(url: url, exportOffset: exportOffset)
        let emit = RecordEmitter(out: out, seed: configuration.seed)
        writeHeader(out)
        // Each pass reseeds the emitter per day, so a day's records depend on that day only.
        var pass: UInt64 = 10
        let plans = { () -> LazyMapSequence<Range<Int>, DayPlan> in
            pass += 1
            return (0..<configuration.days).lazy.map { index in
                let plan = DayPlan.make(index: index, generation: self)
                emit.rng = rng(day: index, stream: pass)
                return plan
            }
        }
        for plan in plans() { writeSteps(plan, emit) }
        for plan in plans() { writeEnergyAndDistance(plan, emit) }
        for plan in plans() {
            writeHeartRate(plan, emit)
            progress?(plan.index)
        }
        for plan in plans() { writeVitals(plan, emit) }
        for plan in plans() { writeSleep(plan, emit) }
        var correlationChildren = 0
        for plan in plans() where plan.bloodPressure { correlationChildren += writeBloodPressure(plan, emit) }
        for plan in plans() { try writeWorkout(plan, emit, routes: routes) }
        for plan in plans() { writeActivitySummary(plan, emit) }
        // Families added later come last, so the records above keep their random streams.
        for plan in plans() { writeRings(plan, emit) }
        for plan in plans() { correlationChildren += writeMeals(plan, emit) }
        out.write("</HealthData>\n")
        try out.close()
        var days: [GroundTruth.Day] = []
        for plan in plans() { days.append(truthDay(plan)) }
        return GroundTruth(
            seed: configuration.seed, persona: configuration.persona.rawValue, homeZone: configuration.homeZone,
            exportDate: ExportDate.format(exportDate, utcOffsetSeconds: exportOffset), exportOffsetSeconds: exportOffset,
            days: days, uniqueRecords: emit.unique, duplicateCopies: emit.duplicateCopies,
            correlationChildrenAtTopLevel: correlationChildren, xmlBytes: out.bytesWritten)
    }

    private func writeHeader(_ out: XMLOutput) {
        out.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 13 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
            <!ATTLIST HealthData
              locale CDATA #REQUIRED
            >
            <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
            <!ATTLIST Record
              type CDATA #REQUIRED
              unit CDATA #IMPLIED
              value CDATA #IMPLIED
            >
            ]>
            <HealthData locale="en_US">

            """)
        out.write(" <ExportDate")
        out.dateAttribute("value", exportDate)
        out.write(
            "/>\n <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1990-04-12\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeNotSet\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n"
        )
    }

    private func writeSteps(_ plan: DayPlan, _ emit: RecordEmitter) {
        for bout in plan.bouts {
            if let span = bout.watchSpan {
                for (start, end, steps) in emit.pieces(
                    span.start, span.end, total: bout.watchSteps, minLength: 60, maxLength: 360)
                {
                    emit.record(
                        "HKQuantityTypeIdentifierStepCount", source: RecordEmitter.watchSource, device: emit.device(watch: true),
                        unit: "count", value: String(steps), start: start, end: end)
                }
            }
            if bout.phone {
                let seen = Int((Double(bout.steps) * 0.96).rounded())
                for (start, end, steps) in emit.pieces(bout.start, bout.end, total: seen, minLength: 300, maxLength: 720) {
                    emit.record(
                        "HKQuantityTypeIdentifierStepCount", source: RecordEmitter.phoneSource, device: emit.device(watch: false),
                        unit: "count", value: String(steps), start: start, end: end)
                }
            }
            // The no-watch persona's Garmin counts all of a run, as the Watch would.
            if bout.tracker {
                for (start, end, steps) in emit.pieces(bout.start, bout.end, total: bout.steps, minLength: 60, maxLength: 360) {
                    emit.record(
                        "HKQuantityTypeIdentifierStepCount", source: RecordEmitter.garminSource, device: emit.device(.garmin),
                        unit: "count", value: String(steps), start: start, end: end)
                }
            }
        }
    }

    private func writeEnergyAndDistance(_ plan: DayPlan, _ emit: RecordEmitter) {
        for bout in plan.bouts {
            // The Watch over its worn part with its share of the steps, the iPhone over the bout,
            // the no-watch persona's Garmin over a run.
            var seen: [(kind: RecordEmitter.DeviceKind, span: DateInterval, steps: Int)] = []
            let whole = DateInterval(start: bout.start, end: bout.end)
            if let span = bout.watchSpan { seen.append((kind: .watch, span: span, steps: bout.watchSteps)) }
            if bout.phone { seen.append((kind: .phone, span: whole, steps: bout.steps)) }
            if bout.tracker { seen.append((kind: .garmin, span: whole, steps: bout.steps)) }
            for (kind, span, total) in seen {
                let source = RecordEmitter.source(of: kind)
                let short = kind != .phone
                let pieces = emit.pieces(
                    span.start, span.end, total: total, minLength: short ? 60 : 300, maxLength: short ? 300 : 720)
                for (start, end, steps) in pieces {
                    emit.record(
                        "HKQuantityTypeIdentifierActiveEnergyBurned", source: source, device: emit.device(kind),
                        unit: "Cal", value: (Double(steps) * 0.045).fixed(3), start: start, end: end)
                    emit.record(
                        "HKQuantityTypeIdentifierDistanceWalkingRunning", source: source, device: emit.device(kind),
                        unit: "km", value: (Double(steps) * 0.00075).fixed(5), start: start, end: end)
                }
            }
        }
        for (on, off) in plan.watchWorn {
            var cursor = on
            while cursor < off {
                let end = min(cursor.addingTimeInterval(1800), off)
                emit.record(
                    "HKQuantityTypeIdentifierBasalEnergyBurned", source: RecordEmitter.watchSource,
                    device: emit.device(watch: true), unit: "kJ",
                    value: (end.timeIntervalSince(cursor) / 3600 * 290).fixed(2), start: cursor, end: end)
                cursor = end
            }
        }
    }

    private func writeHeartRate(_ plan: DayPlan, _ emit: RecordEmitter) {
        let step = 3600 / Double(configuration.heartRatePerHour)
        let (source, kind) = heartSensor
        var wornSpans = plan.watchWorn
        // The Watch is worn every night; the no-watch persona's ring on the nights it is on.
        if configuration.persona == .watch || plan.nightSource.ringWorn { wornSpans.append((plan.bedtime, plan.wake)) }
        for (on, off) in wornSpans {
            var cursor = on.addingTimeInterval(emit.rng.uniform(0...step))
            while cursor < off {
                let active = plan.bouts.contains { $0.start <= cursor && cursor < $0.end }
                let asleep = cursor < plan.wake
                let bpm = asleep ? emit.rng.uniform(50...60) : active ? emit.rng.uniform(95...150) : emit.rng.uniform(62...82)
                // One record in 97 is written twice, as real exports do.
                emit.record(
                    "HKQuantityTypeIdentifierHeartRate", source: source, device: emit.device(kind),
                    unit: "count/min", value: String(Int(bpm)), start: cursor, end: cursor,
                    metadata: [("HKMetadataKeyHeartRateMotionContext", active ? "2" : "0")],
                    copies: emit.rng.int(0...96) == 0 ? 2 : 1)
                cursor = cursor.addingTimeInterval(step + emit.rng.uniform(-20...20))
            }
        }
    }

    private func writeVitals(_ plan: DayPlan, _ emit: RecordEmitter) {
        let morning = plan.wake.addingTimeInterval(1800)
        if configuration.persona == .watch || plan.nightSource.ringWorn { writeNightVitals(plan, emit) }
        if plan.weighIn {
            let drift = 70 + 2 * sin(Double(plan.index) / 40)
            for (type, unit, value) in [
                ("HKQuantityTypeIdentifierBodyMass", "kg", (drift + emit.rng.uniform(-0.4...0.4)).fixed(2)),
                ("HKQuantityTypeIdentifierBodyFatPercentage", "%", emit.rng.uniform(0.19...0.22).fixed(3)),
            ] {
                emit.record(
                    type, source: ("Withings", "6.3"), device: nil, unit: unit, value: value, start: morning, end: morning)
            }
        }
    }

    /// Writes the two readings at top level and the correlation that holds them again.
    private func writeBloodPressure(_ plan: DayPlan, _ emit: RecordEmitter) -> Int {
        let time = plan.wake.addingTimeInterval(2400)
        let source = ("Omron Connect", "8.1")
        let systolic = String(emit.rng.int(108...128))
        let diastolic = String(emit.rng.int(68...84))
        let readings = [
            ("HKQuantityTypeIdentifierBloodPressureSystolic", systolic),
            ("HKQuantityTypeIdentifierBloodPressureDiastolic", diastolic),
        ]
        for (type, value) in readings {
            emit.record(type, source: source, device: nil, unit: "mmHg", value: value, start: time, end: time)
        }
        emit.correlation(
            "HKCorrelationTypeIdentifierBloodPressure", source: source, time: time,
            children: readings.map { ($0.0, "mmHg", $0.1) })
        return readings.count
    }

    /// The Watch's exercise minutes (one record per minute) and stand hours (one per worn hour).
    private func writeRings(_ plan: DayPlan, _ emit: RecordEmitter) {
        for minute in plan.exerciseMinutes {
            emit.record(
                "HKQuantityTypeIdentifierAppleExerciseTime", source: RecordEmitter.watchSource, device: emit.device(watch: true),
                unit: "min", value: "1", start: minute, end: minute.addingTimeInterval(60))
        }
        for (start, stood) in plan.standHours {
            emit.record(
                "HKCategoryTypeIdentifierAppleStandHour", source: RecordEmitter.watchSource, device: emit.device(watch: true),
                unit: nil, value: stood ? "HKCategoryValueAppleStandHourStood" : "HKCategoryValueAppleStandHourIdle",
                start: start, end: start.addingTimeInterval(3600))
        }
    }

    /// Three meals from a food app: the nutrients at top level and again inside a food
    /// correlation that names the meal and the food.
    private func writeMeals(_ plan: DayPlan, _ emit: RecordEmitter) -> Int {
        let source = ("Lose It!", "16.2")
        var children = 0
        for meal in plan.meals {
            let nutrients = [
                ("HKQuantityTypeIdentifierDietaryEnergyConsumed", "kcal", meal.kcal.fixed(0)),
                ("HKQuantityTypeIdentifierDietaryCarbohydrates", "g", (meal.kcal * 0.5 / 4).fixed(1)),
                ("HKQuantityTypeIdentifierDietaryProtein", "g", (meal.kcal * 0.2 / 4).fixed(1)),
                ("HKQuantityTypeIdentifierDietaryFatTotal", "g", (meal.kcal * 0.3 / 9).fixed(1)),
            ]
            let metadata = [("HKFoodMeal", meal.meal), ("HKFoodType", meal.food)]
            for (type, unit, value) in nutrients {
                emit.record(
                    type, source: source, device: nil, unit: unit, value: value, start: meal.time, end: meal.time,
                    metadata: metadata)
            }
            emit.correlation(
                "HKCorrelationTypeIdentifierFood", source: source, time: meal.time, metadata: metadata, children: nutrients)
            children += nutrients.count
        }
        return children
    }
}
