import Foundation
import GRDB
import HealthCore

/// Writes ``HealthRecord`` values inside one open write transaction, deduplicating every
/// element family by content key. Obtain one from ``HealthDatabase/write(_:)``.
public final class RecordWriter {
    let db: Database
    var sampleRows: MultiRowInsert
    var findSample: PreparedInsert
    var metadataRows: MultiRowInsert
    var beatRows: MultiRowInsert
    var insertMember: PreparedInsert
    var insertWorkout: PreparedInsert
    var insertEvent: PreparedInsert
    var insertStatistic: PreparedInsert
    var insertRoute: PreparedInsert
    var pointRows: MultiRowInsert
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
    /// The anchor the next stored sample gets. Anchors are assigned here, not by SQLite,
    /// so that a multi-row insert knows each row's anchor; a duplicate leaves a gap.
    var nextAnchor: Int64
    private var addedByTypeID: [Int64: Int] = [:]
    /// Samples deleted per type id, in this transaction.
    var deletedByTypeID: [Int64: Int] = [:]
    private var runFacts: [RunFacts] = []
    /// Whether the store's samples have v6's one index (``HealthDatabase/samplesKeyedByTypeAndStart(_:)``).
    let samplesKeyedByTypeAndStart: Bool
    /// Stored type ids by their types' tags, for finding a sample by a derived UUID; built
    /// when first needed, forgotten when a type is added.
    var typeIDsByTag: [UInt64: [Int64]]?
    /// In v6's layout, `sample_near_second` by type identifier (``mayHaveTwin(_:)``), read
    /// when first needed.
    var nearSeconds: [String: Set<Int64>]?

    /// Records added and skipped as duplicates, per family.
    public private(set) var added: [HealthRecord.Family: Int] = [:]
    /// The spans of samples replaced by a writer-given UUID with new content (their days
    /// change too).
    public internal(set) var replacedSpans: [DateInterval] = []
    public private(set) var duplicates: [HealthRecord.Family: Int] = [:]
    /// Records that replaced an older reading of the same thing (an activity summary of a
    /// day read from a newer export), per family. Neither added nor duplicate.
    public internal(set) var updated: [HealthRecord.Family: Int] = [:]
    /// Samples added per type identifier (correlation members and workouts included).
    public var addedByType: [String: Int] {
        let identifiers = typeIdentifiers
        return Dictionary(uniqueKeysWithValues: addedByTypeID.map { (identifiers[$0.key] ?? "", $0.value) })
    }

    /// Type identifiers by row id.
    private var typeIdentifiers: [Int64: String] {
        Dictionary(uniqueKeysWithValues: typeIDs.map { ($0.value, $0.key) })
    }

    /// The types added to or deleted from in this transaction.
    var changedTypes: Set<SampleType> {
        let identifiers = typeIdentifiers
        let changed = Set(addedByTypeID.keys).union(deletedByTypeID.keys)
        return Set(changed.compactMap { identifiers[$0].map(SampleType.init) })
    }

    /// The anchor of the latest change made in this transaction (or before it).
    var lastAnchor: QueryAnchor { QueryAnchor(nextAnchor - 1) }

    init(db: Database) throws {
        self.db = db
        samplesKeyedByTypeAndStart = try HealthDatabase.samplesKeyedByTypeAndStart(db)
        sampleRows = MultiRowInsert(
            db,
            head: """
                INSERT OR IGNORE INTO sample (anchor, type_id, start, end, utc_offset, time_zone, value, value_text, unit,
                    source_id, device_id, creation_date, content_key, uuid) VALUES
                """, row: "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)", maxRows: 32)
        // By the key with its type and start in v6's layout; by the key's own index in an older one.
        findSample = try PreparedInsert(
            db,
            samplesKeyedByTypeAndStart
                ? "SELECT anchor FROM sample WHERE type_id = ? AND start BETWEEN ? AND ? AND content_key = ?"
                : "SELECT anchor FROM sample WHERE content_key = ?")
        metadataRows = MultiRowInsert(
            db, head: "INSERT INTO metadata (owner_kind, owner, position, key, value) VALUES", row: "(?,?,?,?,?)",
            maxRows: 64)
        beatRows = MultiRowInsert(
            db, head: "INSERT INTO hrv_beat (sample, position, time, bpm) VALUES", row: "(?,?,?,?)", maxRows: 64)
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
        pointRows = MultiRowInsert(
            db,
            head: """
                INSERT INTO route_point (route, position, time, latitude, longitude, elevation, speed, course,
                    horizontal_accuracy, vertical_accuracy) VALUES
                """, row: "(?,?,?,?,?,?,?,?,?,?)", maxRows: 64)
        insertSummary = try PreparedInsert(
            db,
            """
            INSERT OR IGNORE INTO activity_summary (date, active_energy_burned, active_energy_burned_goal,
                active_energy_burned_unit, apple_move_time, apple_move_time_goal, apple_exercise_time,
                apple_exercise_time_goal, apple_stand_hours, apple_stand_hours_goal, as_of) VALUES (?,?,?,?,?,?,?,?,?,?,?)
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
        // Past every anchor ever handed out, including those of rows deleted since.
        nextAnchor =
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'sample'), 0),
                        coalesce((SELECT max(anchor) FROM sample), 0),
                        coalesce((SELECT max(anchor) FROM tombstone), 0)) + 1
                    """) ?? 1
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

    /// Writes one record whose content key is known already (`record.contentKey`); whether
    /// it was added.
    @discardableResult
    func write(_ record: HealthRecord, key: ContentKey) throws -> Bool {
        let write: RecordWrite
        switch record {
        case .sample(let sample): write = RecordWrite(added: try writeSample(sample, key: key) != nil)
        case .correlation(let correlation): write = RecordWrite(added: try writeCorrelation(correlation, key: key))
        case .workout(let workout): write = try writeWorkout(workout, key: key)
        case .activitySummary(let summary): write = try writeSummary(summary)
        case .clinicalRecord(let record): write = RecordWrite(added: try writeClinical(record, key: key))
        case .audiogram(let audiogram): write = RecordWrite(added: try writeAudiogram(audiogram, key: key))
        case .electrocardiogram(let ecg): write = RecordWrite(added: try writeECG(ecg, key: key))
        case .other(let element): write = RecordWrite(added: try writeRaw(element, key: key))
        }
        switch write {
        case .added: added[record.family, default: 0] += 1
        case .updated: updated[record.family, default: 0] += 1
        case .unchanged: duplicates[record.family, default: 0] += 1
        }
        return write == .added
    }

    /// Stores a run of plain samples with one statement; their metadata and beats follow.
    func writeSamples(_ run: UnsafeBufferPointer<Sample>, keys: UnsafeBufferPointer<ContentKey>) throws {
        let first = nextAnchor
        runFacts.removeAll(keepingCapacity: true)
        try sampleRows.begin(rows: run.count)
        var ids = SampleIDs(type: 0, source: 0, device: nil)
        for index in run.indices {
            // Each sample's fields are read where they are: `run[index]` is a copy of the
            // whole sample here (a retain per field, twice a row), `sample.pointee.start` is not.
            let sample = run.baseAddress! + index
            if index == 0 || !SampleIDs.sameOrigin(sample, sample - 1) { ids = try self.ids(of: sample) }
            let anchor = first + Int64(index)
            try sampleRows.addRow { RecordWriter.bind(&$0, sample, key: keys[index], anchor: anchor, ids: ids) }
            runFacts.append(
                RunFacts(
                    typeID: ids.type, duration: sample.pointee.end.timeIntervalSince(sample.pointee.start),
                    metadata: sample.pointee.metadata.count, beats: sample.pointee.beats?.count ?? 0))
        }
        nextAnchor = first + Int64(run.count)
        // Which rows were new: all of them, unless some content keys were known already.
        var storedAnchors: Set<Int64>?
        if sampleRows.changes < run.count {
            storedAnchors = Set(
                try Int64.fetchAll(
                    db, sql: "SELECT anchor FROM sample WHERE anchor >= ? AND anchor < ?", arguments: [first, nextAnchor]))
        }
        duplicates[.sample, default: 0] += run.count - sampleRows.changes
        added[.sample, default: 0] += sampleRows.changes
        var metadataCount = 0
        var beatCount = 0
        // A run is mostly of one type: its count and longest duration go to the type's
        // bookkeeping once per change of type, not once per sample.
        var typeID: Int64 = -1
        var count = 0
        var longest = 0.0
        for (index, facts) in runFacts.enumerated() where storedAnchors?.contains(first + Int64(index)) ?? true {
            if facts.typeID != typeID {
                if count > 0 { stored(typeID: typeID, count: count, duration: longest) }
                (typeID, count, longest) = (facts.typeID, 0, facts.duration)
            }
            count += 1
            longest = max(longest, facts.duration)
            metadataCount += facts.metadata
            beatCount += facts.beats
        }
        if count > 0 { stored(typeID: typeID, count: count, duration: longest) }
        guard metadataCount > 0 || beatCount > 0 else { return }
        try metadataRows.begin(rows: metadataCount)
        try beatRows.begin(rows: beatCount)
        for (index, facts) in runFacts.enumerated() where facts.metadata + facts.beats > 0 {
            let anchor = first + Int64(index)
            guard storedAnchors?.contains(anchor) ?? true else { continue }
            let sample = run.baseAddress! + index
            try addMetadataRows(sample.pointee.metadata, owner: .sample, id: anchor)
            if let beats = sample.pointee.beats { try addBeatRows(beats, anchor: anchor) }
        }
    }

    func ids(of sample: UnsafePointer<Sample>) throws -> SampleIDs {
        SampleIDs(
            type: try typeID(sample.pointee.type), source: try sourceID(sample.pointee.source),
            device: try sample.pointee.device.map(deviceID))
    }

    /// Binds one `sample` row, in the column order of `sampleRows`.
    static func bind(
        _ statement: inout PreparedInsert, _ sample: UnsafePointer<Sample>, key: ContentKey, anchor: Int64, ids: SampleIDs
    ) {
        statement.bind(anchor)
        statement.bind(ids.type)
        statement.bind(sample.pointee.start)
        statement.bind(sample.pointee.end)
        statement.bind(sample.pointee.utcOffsetSeconds)
        statement.bind(sample.pointee.metadata.timeZoneIdentifier)  // Sample's getter would copy the sample
        switch sample.pointee.value {
        case .quantity(let value, let unit):
            statement.bind(value)
            statement.bind(nil as String?)
            statement.bind(unit)
        case .category(let text):
            // A category's text that reads as a number is kept as one too; never an infinity.
            statement.bind(Double(text).flatMap { $0.isFinite ? $0 : nil })
            statement.bind(text)
            statement.bind(nil as String?)
        case .none:
            statement.bind(nil as Double?)
            statement.bind(nil as String?)
            statement.bind(nil as String?)
        }
        statement.bind(ids.source)
        statement.bind(ids.device)
        statement.bind(sample.pointee.creationDate)
        statement.bind(key)
        // Only a UUID that the key does not derive is stored (export records: NULL).
        statement.bind(sample.pointee.givenUUID.flatMap { $0 == key.uuid ? nil : $0 })
    }

    /// Bookkeeping for `count` samples of a type just stored, the longest lasting `duration`.
    func stored(typeID: Int64, count: Int = 1, duration: TimeInterval) {
        addedByTypeID[typeID, default: 0] += count
        if duration > maxDurations[typeID, default: 0] { maxDurations[typeID] = duration }
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
            typeIDsByTag = nil
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
