import Foundation
import GRDB
import HealthCore

/// Writes ``HealthRecord`` values inside one open write transaction, deduplicating every
/// element family by content key. Obtain one from ``HealthDatabase/write(_:)``.
public final class RecordWriter {
    let db: Database
    private var insertSample: PreparedInsert
    private var findSample: PreparedInsert
    private var insertMetadata: PreparedInsert
    private var insertBeat: PreparedInsert
    private var insertMember: PreparedInsert
    private var insertWorkout: PreparedInsert
    private var insertEvent: PreparedInsert
    private var insertStatistic: PreparedInsert
    private var insertRoute: PreparedInsert
    var insertPoint: PreparedInsert
    private var insertSummary: PreparedInsert
    private var insertClinical: PreparedInsert
    private var insertAudiogramPoint: PreparedInsert
    private var insertECG: PreparedInsert
    private var insertRaw: PreparedInsert
    private var typeIDs: [String: Int64] = [:]
    private var sourceIDs: [Source: Int64] = [:]
    private var deviceIDs: [Device: Int64] = [:]
    private var recentDevices: [(Device, Int64)] = []
    private var maxDurations: [Int64: Double] = [:]

    /// Records added and skipped as duplicates, per family.
    public private(set) var added: [HealthRecord.Family: Int] = [:]
    public private(set) var duplicates: [HealthRecord.Family: Int] = [:]
    /// Samples added per type identifier (correlation members and workouts included).
    public private(set) var addedByType: [String: Int] = [:]
    /// Routes added by this writer whose points live in a file (`FileReference`).
    public private(set) var pendingRouteFiles: [(routeID: Int64, path: String)] = []
    /// Clinical records added by this writer whose FHIR resource lives in a file.
    public private(set) var pendingClinicalFiles: [(recordID: Int64, path: String)] = []

    init(db: Database) throws {
        self.db = db
        insertSample = try PreparedInsert(
            db,
            """
            INSERT OR IGNORE INTO sample (type_id, start, end, utc_offset, time_zone, value, value_text, unit,
                source_id, device_id, creation_date, content_key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        findSample = try PreparedInsert(db, "SELECT anchor FROM sample WHERE content_key = ?")
        insertMetadata = try PreparedInsert(
            db, "INSERT INTO metadata (owner_kind, owner, position, key, value) VALUES (?,?,?,?,?)")
        insertBeat = try PreparedInsert(db, "INSERT INTO hrv_beat (sample, position, time, bpm) VALUES (?,?,?,?)")
        insertMember = try PreparedInsert(
            db, "INSERT OR IGNORE INTO correlation_member (correlation, member) VALUES (?,?)")
        insertWorkout = try PreparedInsert(
            db,
            """
            INSERT INTO workout (anchor, activity_type, duration, duration_unit, total_distance, total_distance_unit,
                total_energy_burned, total_energy_burned_unit, extras_json) VALUES (?,?,?,?,?,?,?,?,?)
            """)
        insertEvent = try PreparedInsert(
            db,
            "INSERT INTO workout_event (workout, position, type, date, duration, duration_unit) VALUES (?,?,?,?,?,?)")
        insertStatistic = try PreparedInsert(
            db,
            """
            INSERT INTO workout_statistic (workout, position, type, start, end, average, minimum, maximum, sum, unit)
            VALUES (?,?,?,?,?,?,?,?,?,?)
            """)
        insertRoute = try PreparedInsert(
            db,
            """
            INSERT INTO workout_route (workout, position, source_id, device_id, start, end, creation_date, file_path,
                points_loaded) VALUES (?,?,?,?,?,?,?,?,?)
            """)
        insertPoint = try PreparedInsert(
            db,
            """
            INSERT INTO route_point (route, position, time, latitude, longitude, elevation, speed, course,
                horizontal_accuracy, vertical_accuracy) VALUES (?,?,?,?,?,?,?,?,?,?)
            """)
        insertSummary = try PreparedInsert(
            db,
            """
            INSERT OR IGNORE INTO activity_summary (date, active_energy_burned, active_energy_burned_goal,
                active_energy_burned_unit, apple_move_time, apple_move_time_goal, apple_exercise_time,
                apple_exercise_time_goal, apple_stand_hours, apple_stand_hours_goal) VALUES (?,?,?,?,?,?,?,?,?,?)
            """)
        insertClinical = try PreparedInsert(
            db,
            """
            INSERT OR IGNORE INTO clinical_record (content_key, type, identifier, source_name, source_url,
                fhir_version, received_date, resource_file_path, resource_json) VALUES (?,?,?,?,?,?,?,?,?)
            """)
        insertAudiogramPoint = try PreparedInsert(
            db,
            """
            INSERT INTO audiogram_point (sample, position, frequency, frequency_unit, left_ear, right_ear, unit,
                attributes_json) VALUES (?,?,?,?,?,?,?,?)
            """)
        insertECG = try PreparedInsert(
            db,
            """
            INSERT OR IGNORE INTO electrocardiogram (content_key, file_name, recorded_date, classification, symptoms,
                software_version, device, sample_rate_hz, lead, unit, header_json, voltages)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        insertRaw = try PreparedInsert(
            db, "INSERT OR IGNORE INTO raw_element (content_key, name, element_json) VALUES (?,?,?)")
        for row in try Row.fetchAll(db, sql: "SELECT id, identifier FROM sample_type") {
            typeIDs[row["identifier"]] = row["id"]
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, name, version FROM source") {
            let version: String = row["version"]
            sourceIDs[Source(name: row["name"], version: version.isEmpty ? nil : version)] = row["id"]
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM device") {
            deviceIDs[DeviceRow.device(from: row)] = row["id"]
        }
    }

    /// Writes one record. Returns `true` when it was new, `false` when an identical record
    /// (same content key) was already stored.
    @discardableResult
    public func write(_ record: HealthRecord) throws -> Bool {
        try write(record, key: record.contentKey)
    }

    /// Writes one record whose content key the caller computed already (importers compute
    /// keys on the parsing thread, off the writer's critical path). `key` must be
    /// `record.contentKey`.
    @discardableResult
    public func write(_ record: HealthRecord, key: ContentKey) throws -> Bool {
        let isNew: Bool
        switch record {
        case .sample(let sample): isNew = try writeSample(sample, key: key) != nil
        case .correlation(let correlation): isNew = try writeCorrelation(correlation, key: key)
        case .workout(let workout): isNew = try writeWorkout(workout, key: key)
        case .activitySummary(let summary): isNew = try writeSummary(summary)
        case .clinicalRecord(let record): isNew = try writeClinical(record, key: key)
        case .audiogram(let audiogram): isNew = try writeAudiogram(audiogram, key: key)
        case .electrocardiogram(let ecg): isNew = try writeECG(ecg, key: key)
        case .other(let element): isNew = try writeRaw(element, key: key)
        }
        if isNew { added[record.family, default: 0] += 1 } else { duplicates[record.family, default: 0] += 1 }
        return isNew
    }

    /// Stores `sample` unless its content key is known; returns its new anchor, or `nil`.
    @discardableResult
    func writeSample(_ sample: Sample, key: ContentKey? = nil) throws -> Int64? {
        let typeID = try typeID(sample.type)
        insertSample.bind(typeID)
        insertSample.bind(sample.start)
        insertSample.bind(sample.end)
        insertSample.bind(sample.utcOffsetSeconds)
        insertSample.bind(sample.timeZoneIdentifier)
        switch sample.value {
        case .quantity(let value, let unit):
            insertSample.bind(value)
            insertSample.bind(nil as String?)
            insertSample.bind(unit)
        case .category(let text):
            insertSample.bind(Double(text))
            insertSample.bind(text)
            insertSample.bind(nil as String?)
        case .none:
            insertSample.bind(nil as Double?)
            insertSample.bind(nil as String?)
            insertSample.bind(nil as String?)
        }
        insertSample.bind(try sourceID(sample.source))
        insertSample.bind(try sample.device.map(deviceID))
        insertSample.bind(sample.creationDate)
        insertSample.bind((key ?? sample.contentKey).bytes)
        guard try insertSample.run() == 1 else { return nil }
        let anchor = insertSample.lastInsertedRowID
        addedByType[sample.type.identifier, default: 0] += 1
        let duration = sample.end.timeIntervalSince(sample.start)
        if duration > maxDurations[typeID, default: 0] { maxDurations[typeID] = duration }
        try writeMetadata(sample.metadata, owner: .sample, id: anchor)
        for (position, beat) in (sample.beats ?? []).enumerated() {
            insertBeat.bind(anchor)
            insertBeat.bind(position)
            insertBeat.bind(beat.time)
            insertBeat.bind(beat.beatsPerMinute)
            try insertBeat.run()
        }
        return anchor
    }

    private func writeMetadata(_ metadata: [MetadataEntry], owner: MetadataOwner, id: Int64) throws {
        for (position, entry) in metadata.enumerated() {
            insertMetadata.bind(owner.rawValue)
            insertMetadata.bind(id)
            insertMetadata.bind(position)
            insertMetadata.bind(entry.key)
            insertMetadata.bind(entry.value)
            try insertMetadata.run()
        }
    }

    private func writeCorrelation(_ correlation: Correlation, key: ContentKey) throws -> Bool {
        guard let anchor = try writeSample(correlation.header, key: key) else { return false }
        for object in correlation.objects {
            let key = object.contentKey
            var member = try writeSample(object, key: key)
            if member == nil {
                findSample.bind(key.bytes)
                member = try findSample.fetchInt()
            }
            insertMember.bind(anchor)
            insertMember.bind(member)
            try insertMember.run()
        }
        return true
    }

    private func writeWorkout(_ workout: Workout, key: ContentKey) throws -> Bool {
        guard let anchor = try writeSample(workout.header, key: key) else { return false }
        insertWorkout.bind(anchor)
        insertWorkout.bind(workout.activityType)
        insertWorkout.bind(workout.duration)
        insertWorkout.bind(workout.durationUnit)
        insertWorkout.bind(workout.totalDistance)
        insertWorkout.bind(workout.totalDistanceUnit)
        insertWorkout.bind(workout.totalEnergyBurned)
        insertWorkout.bind(workout.totalEnergyBurnedUnit)
        insertWorkout.bind(workout.extras.isEmpty ? nil : try JSONText.encode(workout.extras))
        try insertWorkout.run()
        for (position, event) in workout.events.enumerated() {
            insertEvent.bind(anchor)
            insertEvent.bind(position)
            insertEvent.bind(event.type)
            insertEvent.bind(event.date)
            insertEvent.bind(event.duration)
            insertEvent.bind(event.durationUnit)
            try insertEvent.run()
            try writeMetadata(event.metadata, owner: .workoutEvent, id: insertEvent.lastInsertedRowID)
        }
        for (position, statistic) in workout.statistics.enumerated() {
            insertStatistic.bind(anchor)
            insertStatistic.bind(position)
            insertStatistic.bind(statistic.type.identifier)
            insertStatistic.bind(statistic.start)
            insertStatistic.bind(statistic.end)
            insertStatistic.bind(statistic.average)
            insertStatistic.bind(statistic.minimum)
            insertStatistic.bind(statistic.maximum)
            insertStatistic.bind(statistic.sum)
            insertStatistic.bind(statistic.unit)
            try insertStatistic.run()
        }
        for (position, route) in workout.routes.enumerated() {
            insertRoute.bind(anchor)
            insertRoute.bind(position)
            insertRoute.bind(try route.source.map(sourceID))
            insertRoute.bind(try route.device.map(deviceID))
            insertRoute.bind(route.start)
            insertRoute.bind(route.end)
            insertRoute.bind(route.creationDate)
            insertRoute.bind(route.filePath)
            insertRoute.bind(route.points.isEmpty ? 0 : 1)
            try insertRoute.run()
            let routeID = insertRoute.lastInsertedRowID
            try writeMetadata(route.metadata, owner: .workoutRoute, id: routeID)
            try writePoints(route.points, route: routeID)
            if route.points.isEmpty, let path = route.filePath { pendingRouteFiles.append((routeID, path)) }
        }
        return true
    }

    /// Stores the points of a route (inline `Location`s, or a GPX file read later).
    func writePoints(_ points: [RoutePoint], route: Int64) throws {
        for (position, point) in points.enumerated() {
            insertPoint.bind(route)
            insertPoint.bind(position)
            insertPoint.bind(point.time)
            insertPoint.bind(point.latitude)
            insertPoint.bind(point.longitude)
            insertPoint.bind(point.elevation)
            insertPoint.bind(point.speed)
            insertPoint.bind(point.course)
            insertPoint.bind(point.horizontalAccuracy)
            insertPoint.bind(point.verticalAccuracy)
            try insertPoint.run()
        }
    }

    private func writeSummary(_ summary: ActivitySummary) throws -> Bool {
        insertSummary.bind(summary.dateComponents)
        insertSummary.bind(summary.activeEnergyBurned)
        insertSummary.bind(summary.activeEnergyBurnedGoal)
        insertSummary.bind(summary.activeEnergyBurnedUnit)
        insertSummary.bind(summary.appleMoveTime)
        insertSummary.bind(summary.appleMoveTimeGoal)
        insertSummary.bind(summary.appleExerciseTime)
        insertSummary.bind(summary.appleExerciseTimeGoal)
        insertSummary.bind(summary.appleStandHours)
        insertSummary.bind(summary.appleStandHoursGoal)
        if try insertSummary.run() == 1 { return true }
        // A later export can complete a day that an earlier one caught half-way: keep the newest.
        try db.execute(
            sql: """
                UPDATE activity_summary SET active_energy_burned = ?, active_energy_burned_goal = ?,
                    active_energy_burned_unit = ?, apple_move_time = ?, apple_move_time_goal = ?,
                    apple_exercise_time = ?, apple_exercise_time_goal = ?, apple_stand_hours = ?,
                    apple_stand_hours_goal = ? WHERE date = ?
                """,
            arguments: [
                summary.activeEnergyBurned, summary.activeEnergyBurnedGoal, summary.activeEnergyBurnedUnit,
                summary.appleMoveTime, summary.appleMoveTimeGoal, summary.appleExerciseTime,
                summary.appleExerciseTimeGoal, summary.appleStandHours, summary.appleStandHoursGoal,
                summary.dateComponents,
            ])
        return false
    }

    private func writeClinical(_ record: ClinicalRecord, key: ContentKey) throws -> Bool {
        insertClinical.bind(key.bytes)
        insertClinical.bind(record.type)
        insertClinical.bind(record.identifier)
        insertClinical.bind(record.sourceName)
        insertClinical.bind(record.sourceURL)
        insertClinical.bind(record.fhirVersion)
        insertClinical.bind(record.receivedDate)
        insertClinical.bind(record.resourceFilePath)
        insertClinical.bind(record.resourceJSON)
        guard try insertClinical.run() == 1 else { return false }
        if record.resourceJSON == nil, let path = record.resourceFilePath {
            pendingClinicalFiles.append((insertClinical.lastInsertedRowID, path))
        }
        return true
    }

    /// Attaches a clinical record's FHIR JSON read after the main XML.
    func setClinicalResource(_ json: String, recordID: Int64) throws {
        try db.execute(sql: "UPDATE clinical_record SET resource_json = ? WHERE id = ?", arguments: [json, recordID])
    }

    private func writeAudiogram(_ audiogram: Audiogram, key: ContentKey) throws -> Bool {
        guard let anchor = try writeSample(audiogram.sample, key: key) else { return false }
        for (position, point) in audiogram.points.enumerated() {
            insertAudiogramPoint.bind(anchor)
            insertAudiogramPoint.bind(position)
            insertAudiogramPoint.bind(point.frequency)
            insertAudiogramPoint.bind(point.frequencyUnit)
            insertAudiogramPoint.bind(point.leftEar)
            insertAudiogramPoint.bind(point.rightEar)
            insertAudiogramPoint.bind(point.unit)
            insertAudiogramPoint.bind(try JSONText.encode(point.attributes))
            try insertAudiogramPoint.run()
        }
        return true
    }

    private func writeECG(_ ecg: Electrocardiogram, key: ContentKey) throws -> Bool {
        insertECG.bind(key.bytes)
        insertECG.bind(ecg.fileName)
        insertECG.bind(ecg.recordedDate)
        insertECG.bind(ecg.classification)
        insertECG.bind(ecg.symptoms)
        insertECG.bind(ecg.softwareVersion)
        insertECG.bind(ecg.device)
        insertECG.bind(ecg.sampleRateHz)
        insertECG.bind(ecg.lead)
        insertECG.bind(ecg.unit)
        insertECG.bind(try JSONText.encode(ecg.header))
        insertECG.bind(ecg.voltages.withUnsafeBytes { Array($0) })
        return try insertECG.run() == 1
    }

    private func writeRaw(_ element: RawElement, key: ContentKey) throws -> Bool {
        insertRaw.bind(key.bytes)
        insertRaw.bind(element.name)
        insertRaw.bind(try JSONText.encode(element))
        return try insertRaw.run() == 1
    }

    /// Replaces the stored `Me` characteristics with the newest export's.
    public func writeCharacteristics(_ characteristics: [MetadataEntry]) throws {
        guard !characteristics.isEmpty else { return }
        try db.execute(sql: "DELETE FROM characteristic")
        for entry in characteristics {
            try db.execute(
                sql: "INSERT OR REPLACE INTO characteristic (key, value) VALUES (?, ?)", arguments: [entry.key, entry.value])
        }
    }

    /// Records a finished import (used to recognise the same input next time).
    public func recordImport(_ run: ImportRun) throws {
        try db.execute(
            sql: """
                INSERT INTO import_run (fingerprint, path, input_kind, started_at, finished_at, locale, export_date,
                    export_version, bytes, records_read, records_added, duplicates) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
                """,
            arguments: [
                run.fingerprint, run.path, run.inputKind, run.startedAt.timeIntervalSince1970,
                run.finishedAt.timeIntervalSince1970, run.locale, run.exportDate?.timeIntervalSince1970,
                run.exportVersion, run.bytes, run.recordsRead, run.recordsAdded, run.duplicates,
            ])
    }

    func finish() throws {
        for (typeID, duration) in maxDurations {
            try db.execute(
                sql: "UPDATE sample_type SET max_duration = max(max_duration, ?) WHERE id = ?",
                arguments: [duration, typeID])
        }
        maxDurations = [:]
    }

    private func typeID(_ type: SampleType) throws -> Int64 {
        if let known = typeIDs[type.identifier] { return known }
        try db.execute(
            sql: "INSERT INTO sample_type (identifier, kind) VALUES (?, ?)",
            arguments: [type.identifier, type.kind.rawValue])
        let id = db.lastInsertedRowID
        typeIDs[type.identifier] = id
        return id
    }

    private func sourceID(_ source: Source) throws -> Int64 {
        if let known = sourceIDs[source] { return known }
        try db.execute(
            sql: "INSERT INTO source (name, version) VALUES (?, ?)", arguments: [source.name, source.version ?? ""])
        let id = db.lastInsertedRowID
        sourceIDs[source] = id
        return id
    }

    private func deviceID(_ device: Device) throws -> Int64 {
        // Records alternate between a handful of devices: compare with the recent ones
        // (strings shared with the parser's cache compare by identity) before hashing.
        for (recent, id) in recentDevices where recent == device { return id }
        let id = try lookUpDevice(device)
        recentDevices.insert((device, id), at: 0)
        if recentDevices.count > 4 { recentDevices.removeLast() }
        return id
    }

    private func lookUpDevice(_ device: Device) throws -> Int64 {
        if let known = deviceIDs[device] { return known }
        try DeviceRow.insert(device, db: db)
        let id = db.lastInsertedRowID
        deviceIDs[device] = id
        return id
    }
}

extension RecordWriter {
    /// Stores the points of a route read from its GPX file and marks the route loaded.
    public func attachRoutePoints(_ points: [RoutePoint], route: Int64) throws {
        try writePoints(points, route: route)
        try db.execute(sql: "UPDATE workout_route SET points_loaded = 1 WHERE id = ?", arguments: [route])
    }

    /// Attaches a clinical record's FHIR JSON read after the main XML.
    public func attachClinicalResource(_ json: String, recordID: Int64) throws {
        try setClinicalResource(json, recordID: recordID)
    }
}
