import Foundation
import HealthCore

/// Turns the tokens of an `export.xml` into ``HealthRecord`` values, one top-level element
/// at a time, and hands each to `sink`. Holds at most one top-level element in memory.
struct ExportXMLHandler: XMLHandler {
    var info = ExportInfo()
    /// Top-level records read so far.
    private(set) var recordCount = 0
    /// Things read but not modelled (unknown children), by description, for the summary.
    private(set) var warnings: [String: Int] = [:]
    /// Takes each record over (`consuming`: handed on without a copy of its fields).
    private let sink: (consuming HealthRecord) throws -> Void

    private var depth = 0
    private var interner = StringInterner()
    private var plausibility = PlausibilityCheck()
    private var devices: [String: Device?] = [:]
    /// The last device looked up, by its interned key: consecutive records share one.
    private var lastDevice: (key: String, device: Device?)?
    /// The text of the last record date parsed, and its value.
    private var lastDateText = ShortBytes()
    private var lastDate: ExportDate.Parsed?
    private var sample: Sample?
    private var correlation: Correlation?
    private var workout: Workout?
    private var route: WorkoutRoute?
    private var event: WorkoutEvent?
    private var audiogram: Audiogram?
    private var rawStack: [RawElement] = []
    private var rawDepth = 0

    init(sink: @escaping (consuming HealthRecord) throws -> Void) { self.sink = sink }

    var wantsText: Bool { false }

    mutating func text(_ text: XMLText) throws {}

    mutating func comment(_ text: XMLText) {
        guard info.exportVersion == nil else { return }
        let comment = text.string
        if let range = comment.range(of: "HealthKit Export Version:") {
            info.exportVersion = Int(comment[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    mutating func startElement(_ tag: XMLTag) throws {
        defer { depth += 1 }
        if !rawStack.isEmpty {
            rawStack.append(RawElement(name: tag.nameString, attributes: entries(tag)))
            return
        }
        switch depth {
        case 0:
            guard tag.nameIs("HealthData") else {
                throw ExportFormatError("the root element is <\(tag.nameString)>, not <HealthData>: not an Apple Health export")
            }
            info.locale = tag.attribute("locale").map(tag.value)
        case 1:
            try startTopLevel(tag)
        default:
            try startChild(tag)
        }
    }

    private mutating func startTopLevel(_ tag: XMLTag) throws {
        if tag.nameIs("Record") {
            sample = try readSample(tag)
        } else if tag.nameIs("Workout") {
            workout = try readWorkout(tag)
        } else if tag.nameIs("Correlation") {
            let header = try readSample(tag)
            correlation = Correlation(
                type: header.type, start: header.start, end: header.end, source: header.source, device: header.device,
                creationDate: header.creationDate, utcOffsetSeconds: header.utcOffsetSeconds)
        } else if tag.nameIs("ActivitySummary") {
            var summary = readActivitySummary(tag)
            // Stored by its date: without a real one (`""`, `2024-02-30`) no day reads it.
            guard LocalDate(summary.dateComponents)?.description == summary.dateComponents else {
                return warn(ActivitySummary.undatedWarning)
            }
            summary.asOf = info.exportDate
            try emit(.activitySummary(summary))
        } else if tag.nameIs("ClinicalRecord") {
            try emit(.clinicalRecord(readClinicalRecord(tag)))
        } else if tag.nameIs("Audiogram") {
            var header = try readSample(tag)
            if header.type.identifier.isEmpty { header.type = .audiogram }
            audiogram = Audiogram(sample: header, points: [])
        } else if tag.nameIs("ExportDate") {
            info.exportDate = tag.attribute("value").flatMap { ExportDate.parse(tag.bytes($0.value))?.date }
        } else if tag.nameIs("Me") {
            info.characteristics = entries(tag)
        } else {
            rawStack = [RawElement(name: tag.nameString, attributes: entries(tag))]
            rawDepth = depth
        }
    }

    private mutating func startChild(_ tag: XMLTag) throws {
        if tag.nameIs("MetadataEntry") {
            let key = tag.attribute("key").map(tag.value) ?? ""
            let value = tag.attribute("value").map(tag.value) ?? ""
            let entry = MetadataEntry(key: key, value: value)
            if event.isPresent {
                event!.metadata.append(entry)
            } else if route.isPresent {
                route!.metadata.append(entry)
            } else if sample.isPresent {
                sample!.metadata.append(entry)
            } else if audiogram.isPresent {
                audiogram!.sample.metadata.append(entry)
            } else if correlation.isPresent {
                correlation!.metadata.append(entry)
            } else if workout.isPresent {
                workout!.metadata.append(entry)
            } else {
                warn("MetadataEntry outside a sample")
            }
        } else if tag.nameIs("InstantaneousBeatsPerMinute") {
            try readBeat(tag)
        } else if tag.nameIs("HeartRateVariabilityMetadataList") {
            if sample.isPresent, sample!.beats == nil { sample!.beats = [] }
        } else if tag.nameIs("Record"), correlation.isPresent {
            sample = try readSample(tag)
        } else if workout.isPresent {
            try startWorkoutChild(tag)
        } else if tag.nameIs("SensitivityPoint"), audiogram.isPresent {
            audiogram!.points.append(readSensitivityPoint(tag))
        } else {
            warn("<\(tag.nameString)> inside a record (ignored)")
            rawStack = [RawElement(name: tag.nameString)]
            rawDepth = depth
        }
    }

    private mutating func startWorkoutChild(_ tag: XMLTag) throws {
        if tag.nameIs("WorkoutEvent") {
            event = WorkoutEvent(
                type: tag.attribute("type").map(tag.value) ?? "", date: try date(tag, "date") ?? workout!.start,
                duration: reportedNumber(tag, "duration"), durationUnit: string(tag, "durationUnit"))
        } else if tag.nameIs("WorkoutStatistics") {
            let statistic = WorkoutStatistic(
                type: SampleType(string(tag, "type") ?? ""), start: try date(tag, "startDate"), end: try date(tag, "endDate"),
                average: reportedNumber(tag, "average"), minimum: reportedNumber(tag, "minimum"),
                maximum: reportedNumber(tag, "maximum"), sum: reportedNumber(tag, "sum"), unit: string(tag, "unit"))
            workout!.statistics.append(statistic)
        } else if tag.nameIs("WorkoutRoute") {
            route = WorkoutRoute(
                source: string(tag, "sourceName").map { Source(name: $0, version: string(tag, "sourceVersion")) },
                device: device(tag), start: try date(tag, "startDate"), end: try date(tag, "endDate"),
                creationDate: try date(tag, "creationDate"))
        } else if tag.nameIs("FileReference"), route.isPresent {
            route!.filePath = tag.attribute("path").map(tag.value)
        } else if tag.nameIs("Location"), route.isPresent {
            route!.points.append(
                RoutePoint(
                    time: try date(tag, "date"), latitude: number(tag, "latitude") ?? .nan,
                    longitude: number(tag, "longitude") ?? .nan, elevation: number(tag, "altitude"),
                    speed: number(tag, "speed"), course: number(tag, "course"),
                    horizontalAccuracy: number(tag, "horizontalAccuracy"),
                    verticalAccuracy: number(tag, "verticalAccuracy")))
        } else {
            // WorkoutActivity and anything newer: kept verbatim with the workout.
            rawStack = [RawElement(name: tag.nameString, attributes: entries(tag))]
            rawDepth = depth
        }
    }

    mutating func endElement(_ tag: XMLTag) throws {
        depth -= 1
        if !rawStack.isEmpty {
            let element = rawStack.removeLast()
            if !rawStack.isEmpty {
                rawStack[rawStack.count - 1].children.append(element)
            } else if rawDepth == 1 {
                try emit(.other(element))
            } else if workout.isPresent {
                workout!.extras.append(element)
            }
            return
        }
        // `take()` moves each finished value out: a copy would retain every field of it.
        if tag.nameIs("Record"), let finished = sample.take() {
            if correlation.isPresent {
                correlation!.objects.append(finished)
            } else {
                try emit(.sample(consume finished))
            }
        } else if tag.nameIs("WorkoutEvent"), let finished = event.take() {
            workout?.events.append(finished)
        } else if tag.nameIs("WorkoutRoute"), var finished = route.take() {
            let (points, altered) = finished.points.plausiblePoints()
            finished.points = points
            if altered > 0 { warnings[RoutePointWarning.text, default: 0] += altered }
            workout?.routes.append(finished)
        } else if depth == 1 {
            if tag.nameIs("Workout"), let finished = workout.take() {
                try emit(.workout(consume finished))
            } else if tag.nameIs("Correlation"), let finished = correlation.take() {
                try emit(.correlation(consume finished))
            } else if tag.nameIs("Audiogram"), let finished = audiogram.take() {
                try emit(.audiogram(consume finished))
            }
        }
    }

    private mutating func emit(_ record: consuming HealthRecord) throws {
        // An absurd value (a step count of 1e300) is refused like any invalid record.
        if let problem = plausibility.violation(of: record) { throw ExportFormatError(problem) }
        // Kept, as a later version may read it; today every figure leaves it out.
        if let warning = plausibility.unreadUnitWarning(record) { warn(warning) }
        recordCount += 1
        try sink(consume record)
    }

    private mutating func warn(_ what: String) { warnings[what, default: 0] += 1 }
}

extension ExportXMLHandler {
    /// Reads the attributes shared by `Record`, `Correlation` and `Audiogram`.
    fileprivate mutating func readSample(_ tag: XMLTag) throws -> Sample {
        var type = ""
        var sourceName: String?
        var sourceVersion: String?
        var unit: String?
        var valueAttribute: XMLAttribute?
        var start: ExportDate.Parsed?
        var end: ExportDate.Parsed?
        var created: ExportDate.Parsed?
        var deviceValue: Device?
        for attribute in tag.attributes {
            switch attribute.name.count {
            case 4:
                if tag.attributeNameIs(attribute, "type") {
                    type = interned(tag, attribute)
                } else if tag.attributeNameIs(attribute, "unit") {
                    unit = interned(tag, attribute)
                }
            case 5: if tag.attributeNameIs(attribute, "value") { valueAttribute = attribute }
            case 6: if tag.attributeNameIs(attribute, "device") { deviceValue = device(tag, attribute) }
            case 7: if tag.attributeNameIs(attribute, "endDate") { end = try recordDate(tag, attribute) }
            case 9: if tag.attributeNameIs(attribute, "startDate") { start = try recordDate(tag, attribute) }
            case 10: if tag.attributeNameIs(attribute, "sourceName") { sourceName = interned(tag, attribute) }
            case 12: if tag.attributeNameIs(attribute, "creationDate") { created = try recordDate(tag, attribute) }
            case 13: if tag.attributeNameIs(attribute, "sourceVersion") { sourceVersion = interned(tag, attribute) }
            default: break
            }
        }
        guard let start else { throw ExportFormatError("<\(tag.nameString)> without a startDate") }
        let value: SampleValue
        if let valueAttribute {
            // With a unit, "inf" or "1e309" is a quantity too: the plausibility check refuses it.
            let text = tag.bytes(valueAttribute.value)
            if let unit, let number = ByteParsing.double(text) ?? ByteParsing.nonFinite(text) {
                value = .quantity(number, unit: unit)
            } else if type.hasPrefix("HKQuantityTypeIdentifier"), ByteParsing.double(text) == nil {
                // A quantity whose value is no number: refused as NaN is, never stored as text.
                value = .quantity(.nan, unit: unit ?? "")
            } else {
                value = .category(interned(tag, valueAttribute))
            }
        } else {
            value = .none
        }
        return Sample(
            type: SampleType(type), start: start.date, end: end?.date ?? start.date, value: value,
            source: Source(name: sourceName ?? "", version: sourceVersion), device: deviceValue,
            creationDate: created?.date, utcOffsetSeconds: start.utcOffsetSeconds)
    }

    fileprivate mutating func readWorkout(_ tag: XMLTag) throws -> Workout {
        let header = try readSample(tag)
        return Workout(
            activityType: string(tag, "workoutActivityType") ?? "", start: header.start, end: header.end,
            duration: reportedNumber(tag, "duration"), durationUnit: string(tag, "durationUnit"),
            totalDistance: reportedNumber(tag, "totalDistance"), totalDistanceUnit: string(tag, "totalDistanceUnit"),
            totalEnergyBurned: reportedNumber(tag, "totalEnergyBurned"),
            totalEnergyBurnedUnit: string(tag, "totalEnergyBurnedUnit"), source: header.source,
            device: header.device, creationDate: header.creationDate, utcOffsetSeconds: header.utcOffsetSeconds)
    }

    fileprivate mutating func readActivitySummary(_ tag: XMLTag) -> ActivitySummary {
        var summary = ActivitySummary(dateComponents: string(tag, "dateComponents") ?? "")
        summary.activeEnergyBurned = reportedNumber(tag, "activeEnergyBurned")
        summary.activeEnergyBurnedGoal = reportedNumber(tag, "activeEnergyBurnedGoal")
        summary.activeEnergyBurnedUnit = string(tag, "activeEnergyBurnedUnit")
        summary.appleMoveTime = reportedNumber(tag, "appleMoveTime") ?? reportedNumber(tag, "appleMoveMinutes")
        summary.appleMoveTimeGoal = reportedNumber(tag, "appleMoveTimeGoal") ?? reportedNumber(tag, "appleMoveMinutesGoal")
        summary.appleExerciseTime = reportedNumber(tag, "appleExerciseTime")
        summary.appleExerciseTimeGoal = reportedNumber(tag, "appleExerciseTimeGoal")
        summary.appleStandHours = reportedNumber(tag, "appleStandHours")
        summary.appleStandHoursGoal = reportedNumber(tag, "appleStandHoursGoal")
        return summary
    }

    fileprivate func readClinicalRecord(_ tag: XMLTag) throws -> ClinicalRecord {
        ClinicalRecord(
            type: string(tag, "type") ?? "", identifier: string(tag, "identifier") ?? "",
            sourceName: string(tag, "sourceName") ?? "", sourceURL: string(tag, "sourceURL"),
            fhirVersion: string(tag, "fhirVersion"), receivedDate: try date(tag, "receivedDate"),
            resourceFilePath: string(tag, "resourceFilePath"))
    }

    fileprivate func readSensitivityPoint(_ tag: XMLTag) -> SensitivityPoint {
        SensitivityPoint(
            frequency: number(tag, "frequencyValue"), frequencyUnit: string(tag, "frequencyUnit"),
            leftEar: number(tag, "leftEarValue"), rightEar: number(tag, "rightEarValue"),
            unit: string(tag, "leftEarUnit") ?? string(tag, "rightEarUnit"), attributes: entries(tag))
    }

    fileprivate mutating func readBeat(_ tag: XMLTag) throws {
        guard let parent = sample else {
            warn("InstantaneousBeatsPerMinute outside a record")
            return
        }
        guard let bpm = number(tag, "bpm"), let text = string(tag, "time"),
            let secondsOfDay = BeatTime.secondsOfDay(text)
        else {
            warn("InstantaneousBeatsPerMinute with an unreadable bpm or time (skipped)")
            return
        }
        let time = BeatTime.anchor(
            secondsOfDay: secondsOfDay, parentStart: parent.start, utcOffsetSeconds: parent.utcOffsetSeconds ?? 0)
        sample!.beats = (sample!.beats ?? []) + [HeartbeatInstant(time: time, beatsPerMinute: bpm)]
    }

    fileprivate func entries(_ tag: XMLTag) -> [MetadataEntry] {
        tag.attributes.map { MetadataEntry(key: tag.attributeName($0), value: tag.value($0)) }
    }

    fileprivate func string(_ tag: XMLTag, _ name: StaticString) -> String? {
        tag.attribute(name).map(tag.value)
    }

    fileprivate func number(_ tag: XMLTag, _ name: StaticString) -> Double? {
        tag.attribute(name).flatMap { ByteParsing.double(tag.bytes($0.value)) }
    }

    /// ``number(_:_:)`` of a workout's, an event's, a statistic's or a summary's field; one
    /// written but no finite number (`NaN`, `inf`, text) is left out with a warning.
    fileprivate mutating func reportedNumber(_ tag: XMLTag, _ name: StaticString) -> Double? {
        guard let attribute = tag.attribute(name), !tag.bytes(attribute.value).allSatisfy({ $0 <= 32 }) else { return nil }
        if let value = ByteParsing.double(tag.bytes(attribute.value)) { return value }
        warn("\(tag.nameString) \(name) that is not a finite number (left out)")
        return nil
    }

    fileprivate func date(_ tag: XMLTag, _ name: StaticString) throws -> Date? {
        try tag.attribute(name).map { try parseDate(tag, $0).date }
    }

    /// ``parseDate(_:_:)`` for a record's dates, the last text remembered: a sample's end is
    /// often its start, written again.
    fileprivate mutating func recordDate(_ tag: XMLTag, _ attribute: XMLAttribute) throws -> ExportDate.Parsed {
        let bytes = tag.bytes(attribute.value)
        if let lastDate, lastDateText.equals(bytes) { return lastDate }
        let parsed = try parseDate(tag, attribute)
        lastDateText.set(bytes)
        lastDate = parsed
        return parsed
    }

    fileprivate func parseDate(_ tag: XMLTag, _ attribute: XMLAttribute) throws -> ExportDate.Parsed {
        guard let parsed = ExportDate.parse(tag.bytes(attribute.value), recordTime: true) else {
            throw ExportFormatError(
                "<\(tag.nameString)> has a \(tag.attributeName(attribute)) that is not a date of the form 2019-01-01 08:00:00 -0800 "
                    + "in the years 1900–2199"
            )
        }
        return parsed
    }

    fileprivate mutating func interned(_ tag: XMLTag, _ attribute: XMLAttribute) -> String {
        attribute.hasEntity ? tag.value(attribute) : interner.string(tag.bytes(attribute.value))
    }

    /// Devices are cached by their string without the `0x…` address, which differs from
    /// record to record; each distinct device is parsed once.
    fileprivate mutating func device(_ tag: XMLTag, _ attribute: XMLAttribute) -> Device? {
        guard let stripped = ExportXMLHandler.withoutAddress(tag.bytes(attribute.value)) else {
            return Device(exportString: tag.value(attribute))
        }
        let key = interner.string(stripped)
        // Interned: the same key is the same string object, compared at once.
        if let last = lastDevice, last.key == key { return last.device }
        if let known = devices[key] {
            lastDevice = (key, known)
            return known
        }
        let parsed = Device(exportString: tag.value(attribute))
        if devices.count < 100_000 { devices[key] = parsed }
        lastDevice = (key, parsed)
        return parsed
    }

    fileprivate mutating func device(_ tag: XMLTag) -> Device? {
        tag.attribute("device").flatMap { device(tag, $0) }
    }
}
