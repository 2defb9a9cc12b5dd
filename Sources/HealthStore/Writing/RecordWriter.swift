import Foundation
import GRDB
import HealthCore

/// Writes ``HealthRecord`` values inside one open write transaction, deduplicating every
/// element family by content key. Obtain one from ``HealthDatabase/write(_:)``.
public final class RecordWriter {
    let db: Database
    var insertSample: PreparedInsert
    var findSample: PreparedInsert
    var insertMetadata: PreparedInsert
    var insertBeat: PreparedInsert
    var insertMember: PreparedInsert
    var insertWorkout: PreparedInsert
    var insertEvent: PreparedInsert
    var insertStatistic: PreparedInsert
    var insertRoute: PreparedInsert
    var insertPoint: PreparedInsert
    var insertSummary: PreparedInsert
    var insertClinical: PreparedInsert
    var insertAudiogramPoint: PreparedInsert
    var insertECG: PreparedInsert
    var insertRaw: PreparedInsert
    private var typeIDs: [String: Int64] = [:]
    private var sourceIDs: [Source: Int64] = [:]
    private var deviceIDs: [Device: Int64] = [:]
    private var recentTypes = RecentIDs<String>(capacity: 2)
    private var recentSources = RecentIDs<Source>()
    private var recentDevices = RecentIDs<Device>()
    private var maxDurations: [Int64: Double] = [:]

    /// Records added and skipped as duplicates, per family.
    public private(set) var added: [HealthRecord.Family: Int] = [:]
    public private(set) var duplicates: [HealthRecord.Family: Int] = [:]
    /// Samples added per type identifier (correlation members and workouts included).
    public private(set) var addedByType: [String: Int] = [:]
    /// Routes added by this writer whose points live in a file (`FileReference`).
    public internal(set) var pendingRouteFiles: [(routeID: Int64, path: String)] = []
    /// Clinical records added by this writer whose FHIR resource lives in a file.
    public internal(set) var pendingClinicalFiles: [(recordID: Int64, path: String)] = []

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

    func writeMetadata(_ metadata: [MetadataEntry], owner: MetadataOwner, id: Int64) throws {
        for (position, entry) in metadata.enumerated() {
            insertMetadata.bind(owner.rawValue)
            insertMetadata.bind(id)
            insertMetadata.bind(position)
            insertMetadata.bind(entry.key)
            insertMetadata.bind(entry.value)
            try insertMetadata.run()
        }
    }

    func finish() throws {
        for (typeID, duration) in maxDurations {
            try db.execute(
                sql: "UPDATE sample_type SET max_duration = max(max_duration, ?) WHERE id = ?",
                arguments: [duration, typeID])
        }
        maxDurations = [:]
    }

    func typeID(_ type: SampleType) throws -> Int64 {
        try recentTypes.id(for: type.identifier) { identifier in
            if let known = typeIDs[identifier] { return known }
            try db.execute(
                sql: "INSERT INTO sample_type (identifier, kind) VALUES (?, ?)", arguments: [identifier, type.kind.rawValue])
            typeIDs[identifier] = db.lastInsertedRowID
            return db.lastInsertedRowID
        }
    }

    func sourceID(_ source: Source) throws -> Int64 {
        try recentSources.id(for: source) { source in
            if let known = sourceIDs[source] { return known }
            try db.execute(
                sql: "INSERT INTO source (name, version) VALUES (?, ?)", arguments: [source.name, source.version ?? ""])
            sourceIDs[source] = db.lastInsertedRowID
            return db.lastInsertedRowID
        }
    }

    func deviceID(_ device: Device) throws -> Int64 {
        try recentDevices.id(for: device, orLookUp: lookUpDevice)
    }

    private func lookUpDevice(_ device: Device) throws -> Int64 {
        if let known = deviceIDs[device] { return known }
        try DeviceRow.insert(device, db: db)
        let id = db.lastInsertedRowID
        deviceIDs[device] = id
        return id
    }
}
