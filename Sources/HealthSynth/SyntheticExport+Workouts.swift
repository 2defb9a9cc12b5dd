import Foundation
import HealthCore
import HealthMetrics

extension SyntheticExport {
    /// A run with statistics (no totals on the element, as modern Watch workouts), a
    /// pause/resume, `HKTimeZone`, and a GPX route in `workout-routes/`.
    func writeWorkout(_ plan: DayPlan, _ emit: RecordEmitter, routes: URL) throws {
        guard let (start, end) = plan.workout else { return }
        emit.unique["Workout", default: 0] += 1
        let out = emit.out
        let minutes = end.timeIntervalSince(start) / 60
        let steps = plan.bouts.first { $0.start == start }?.steps ?? 0
        // The Watch's run, or the no-watch persona's Garmin's.
        let (source, kind) =
            configuration.persona == .watch
            ? (RecordEmitter.watchSource, RecordEmitter.DeviceKind.watch)
            : (RecordEmitter.garminSource, RecordEmitter.DeviceKind.garmin)
        let local = start.timeIntervalSince1970 + Double(exportOffset)
        let (year, month, day) = CivilDays.date(Int((local / 86400).rounded(.down)))
        let fileName = String(format: "route_%04d-%02d-%02d_%d.%02dpm.gpx", year, month, day, 6, plan.index % 60)
        out.write("  <Workout")
        out.attribute("workoutActivityType", "HKWorkoutActivityTypeRunning")
        out.attribute("duration", minutes.fixed(6))
        out.attribute("durationUnit", "min")
        out.attribute("sourceName", source.0)
        out.attribute("sourceVersion", source.1)
        out.attribute("device", emit.device(kind))
        out.dateAttribute("creationDate", end.addingTimeInterval(2))
        out.dateAttribute("startDate", start)
        out.dateAttribute("endDate", end)
        out.write(">\n")
        for (key, value) in [
            ("HKIndoorWorkout", "0"), (MetadataEntry.timeZoneKey, plan.zone.identifier), ("HKElevationAscended", "3120 cm"),
        ] {
            out.write("   <MetadataEntry")
            out.attribute("key", key)
            out.attribute("value", value)
            out.write("/>\n")
        }
        let pause = start.addingTimeInterval(end.timeIntervalSince(start) / 2)
        for (type, date) in [("HKWorkoutEventTypePause", pause), ("HKWorkoutEventTypeResume", pause.addingTimeInterval(60))] {
            out.write("   <WorkoutEvent")
            out.attribute("type", type)
            out.dateAttribute("date", date)
            out.write("/>\n")
        }
        let statistics: [(String, [(String, String)])] = [
            ("HKQuantityTypeIdentifierActiveEnergyBurned", [("sum", (Double(steps) * 0.045).fixed(3)), ("unit", "Cal")]),
            ("HKQuantityTypeIdentifierDistanceWalkingRunning", [("sum", (Double(steps) * 0.00075).fixed(5)), ("unit", "km")]),
            (
                "HKQuantityTypeIdentifierHeartRate",
                [("average", "142"), ("minimum", "96"), ("maximum", "171"), ("unit", "count/min")]
            ),
        ]
        for (type, values) in statistics {
            out.write("   <WorkoutStatistics")
            out.attribute("type", type)
            out.dateAttribute("startDate", start)
            out.dateAttribute("endDate", end)
            for (name, value) in values { out.attribute(name, value) }
            out.write("/>\n")
        }
        out.write("   <WorkoutRoute")
        out.attribute("sourceName", source.0)
        out.attribute("sourceVersion", source.1)
        out.dateAttribute("creationDate", end.addingTimeInterval(3))
        out.dateAttribute("startDate", start)
        out.dateAttribute("endDate", end)
        out.write(">\n    <FileReference")
        out.attribute("path", "/workout-routes/" + fileName)
        out.write("/>\n   </WorkoutRoute>\n  </Workout>\n")
        try gpx(start: start, end: end, inParis: plan.zone.identifier == configuration.tripZone)
            .write(to: routes.appendingPathComponent(fileName), atomically: false, encoding: .utf8)
    }

    /// A loop of points every 10 seconds.
    private func gpx(start: Date, end: Date, inParis: Bool) -> String {
        let (latitude, longitude) = inParis ? (48.8566, 2.3522) : (34.0522, -118.2437)
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<gpx version=\"1.1\" creator=\"Apple Health Export\" xmlns=\"http://www.topografix.com/GPX/1/1\">",
            " <trk><name>Route</name><trkseg>",
        ]
        let formatter = ISO8601DateFormatter()
        let count = Int(end.timeIntervalSince(start) / 10)
        for index in 0...count {
            let angle = Double(index) / Double(max(count, 1)) * 2 * .pi
            let time = start.addingTimeInterval(Double(index) * 10)
            lines.append(
                "  <trkpt lat=\"\((latitude + 0.01 * sin(angle)).fixed(6))\" lon=\"\((longitude + 0.01 * cos(angle)).fixed(6))\">"
                    + "<ele>\((30 + 5 * sin(angle * 3)).fixed(1))</ele><time>\(formatter.string(from: time))</time>"
                    + "<extensions><speed>2.9</speed><course>\((angle * 180 / .pi).fixed(1))</course>"
                    + "<hAcc>3.0</hAcc><vAcc>2.0</vAcc></extensions></trkpt>")
        }
        lines.append(" </trkseg></trk>\n</gpx>")
        return lines.joined(separator: "\n")
    }

    func writeActivitySummary(_ plan: DayPlan, _ emit: RecordEmitter) {
        emit.unique["ActivitySummary", default: 0] += 1
        let energy = plan.bouts.reduce(0.0) { $0 + Double($1.steps) * 0.045 }
        let exercise = plan.exerciseMinutes.count
        let out = emit.out
        out.write("  <ActivitySummary")
        out.attribute("dateComponents", plan.localDate)
        out.attribute("activeEnergyBurned", energy.fixed(3))
        out.attribute("activeEnergyBurnedGoal", "500")
        out.attribute("activeEnergyBurnedUnit", "Cal")
        out.attribute("appleMoveTime", "0")
        out.attribute("appleMoveTimeGoal", "0")
        out.attribute("appleExerciseTime", String(exercise))
        out.attribute("appleExerciseTimeGoal", "30")
        out.attribute("appleStandHours", String(plan.standHours.filter(\.stood).count))
        out.attribute("appleStandHoursGoal", "12")
        out.write("/>\n")
    }

    func truthDay(_ plan: DayPlan) -> GroundTruth.Day {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = plan.zone
        formatter.formatOptions = [.withInternetDateTime]
        let steps = plan.bouts.reduce(0) { $0 + $1.steps }
        let watch = plan.bouts.reduce(0) { $0 + $1.watchSteps }
        let phone = plan.bouts.reduce(0) { $0 + $1.phoneSteps }
        let tracker = plan.bouts.filter(\.tracker).reduce(0) { $0 + $1.steps }
        let observable = plan.bouts.reduce(0.0) { $0 + $1.observableSteps }
        return GroundTruth.Day(
            date: plan.localDate, timeZone: plan.zone.identifier, steps: steps, iPhoneSteps: phone, watchSteps: watch,
            trackerSteps: tracker, observableSteps: Int(observable.rounded()),
            asleepMinutes: plan.asleepSeconds / 60, napMinutes: plan.napSeconds / 60,
            bedtime: formatter.string(from: plan.stages.first?.start ?? plan.bedtime),
            waketime: formatter.string(from: plan.stages.last?.end ?? plan.wake),
            inBedStart: formatter.string(from: plan.inBed.start), inBedEnd: formatter.string(from: plan.inBed.end),
            sleepBasis: plan.nightSource.basis.rawValue,
            strain: plan.strain.isEmpty ? nil : plan.strain.map(\.rawValue))
    }
}
