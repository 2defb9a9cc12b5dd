import Foundation
import GRDB
import HealthCore

extension RecordWriter {
    /// Stores `sample` unless its content key is known; returns its new anchor, or `nil`.
    /// A writer-given UUID stored with other content is replaced (docs/store.md §Identity).
    @discardableResult
    func writeSample(_ sample: Sample, key: ContentKey? = nil) throws -> Int64? {
        var key = key ?? sample.contentKey
        if let given = sample.givenUUID {
            if let holder = try storedAnchor(of: sample, key: key) {
                // A given UUID derived from this very content (a feed's sample sent back) names
                // the content, not a writer's sample: the content is stored, so a duplicate.
                guard given != key.uuid else { return nil }
                // The same content under another writer-given UUID is another sample: it is
                // stored under a key of its own, never merged into that UUID's row. The same
                // UUID again, or a row an export wrote (no UUID of its own), is a duplicate.
                let holderUUID = try Data.fetchOne(
                    db.cachedStatement(sql: "SELECT uuid FROM sample WHERE anchor = ?"), arguments: [holder])
                guard let holderUUID, holderUUID != Data(given.bytes) else { return nil }
                key = key.distinguished(by: given)
                guard try storedAnchor(of: sample, key: key) == nil else { return nil }
            }
            let typeID = try typeID(sample.type)
            if let replaced = try storedSample(uuid: given) {
                guard replaced.typeID == typeID else { throw SampleIdentityError(uuid: given, type: sample.type) }
                if let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT start, end FROM sample WHERE anchor = ?"), arguments: [replaced.anchor])
                {
                    let (start, end): (Double, Double) = (row[0], row[1])
                    replacedSpans.append(
                        DateInterval(
                            start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: max(start, end))))
                }
                try deleteSample(anchor: replaced.anchor)
            } else if let deletedType = try Int64.fetchOne(
                db, sql: "SELECT type_id FROM tombstone WHERE uuid = ? LIMIT 1", arguments: [Data(given.bytes)]),
                deletedType != typeID
            {
                throw SampleIdentityError(uuid: given, type: sample.type)
            }
        }
        if sample.givenUUID == nil, try mayHaveTwin(sample), try storedAnchor(of: sample, key: key) != nil { return nil }
        let ids = try withUnsafePointer(to: sample) { try self.ids(of: $0) }
        let anchor = nextAnchor
        try sampleRows.begin(rows: 1)
        try sampleRows.addRow { row in
            withUnsafePointer(to: sample) { RecordWriter.bind(&row, $0, key: key, anchor: anchor, ids: ids) }
        }
        guard sampleRows.changes == 1 else { return nil }
        nextAnchor += 1
        if samplesKeyedByTypeAndStart { try noteNearSecond(sample, typeID: ids.type) }
        stored(typeID: ids.type, duration: sample.end.timeIntervalSince(sample.start))
        try writeMetadata(sample.metadata, owner: .sample, id: anchor)
        try writeBeats(sample.beats ?? [], anchor: anchor)
        return anchor
    }

    func writeCorrelation(_ correlation: Correlation, key: ContentKey) throws -> Bool {
        guard let anchor = try writeSample(correlation.header, key: key) else { return false }
        for object in correlation.objects {
            let key = object.contentKey
            var member = try writeSample(object, key: key)
            if member == nil {
                member = try storedAnchor(of: object, key: key)
            }
            insertMember.bind(anchor)
            insertMember.bind(member)
            try insertMember.run()
        }
        return true
    }

    /// The anchor of the stored sample `sample` is a copy of (its content key is `key`): in
    /// v6's layout the unique index on (type, start, key) finds it, in an older store the
    /// key's own index.
    func storedAnchor(of sample: Sample, key: ContentKey) throws -> Int64? {
        if samplesKeyedByTypeAndStart {
            // The key holds the start to the millisecond: a copy may start anywhere in it.
            let millisecond = (sample.start.timeIntervalSince1970 * 1000).rounded()
            findSample.bind(try typeID(sample.type))
            findSample.bind((millisecond - 1) / 1000)
            findSample.bind((millisecond + 1) / 1000)
        }
        findSample.bind(key)
        return try findSample.fetchInt()
    }

    /// Whether `sample` must be looked for before it is written, in v6's layout: its unique
    /// index compares exact starts, and its key the start's millisecond only. So a sample
    /// whose start is not a whole second (HealthKit's dates, never an export's) is looked
    /// for, and so is one at a whole second where a sample of its type within that second's
    /// millisecond is stored (`sample_near_second`). Two copies of a record then meet
    /// whichever comes first; every export's samples still take a batch's one statement.
    func mayHaveTwin(_ sample: Sample) throws -> Bool {
        try mayHaveTwin(start: sample.start) { sample.type.identifier }
    }

    /// ``mayHaveTwin(_:)`` of `samples[index]`, reading only its start and, when needed, its
    /// type: a sample passed whole from a buffer is copied (a retain of every field).
    func mayHaveTwin(_ samples: UnsafeBufferPointer<Sample>, at index: Int) throws -> Bool {
        try mayHaveTwin(start: samples[index].start) { samples[index].type.identifier }
    }

    private func mayHaveTwin(start date: Date, type: () -> String) throws -> Bool {
        guard samplesKeyedByTypeAndStart else { return false }
        let start = date.timeIntervalSince1970
        guard start.rounded(.down) == start else { return true }
        if nearSeconds == nil {
            var read: [String: Set<Int64>] = [:]
            for row in try Row.fetchAll(
                db,
                sql: "SELECT t.identifier, n.second FROM sample_near_second n JOIN sample_type t ON t.id = n.type_id")
            {
                read[row[0], default: []].insert(row[1])
            }
            nearSeconds = read
        }
        guard let table = nearSeconds, !table.isEmpty, let seconds = table[type()],
            let second = Int64(exactly: start)
        else { return false }
        return seconds.contains(second)
    }

    /// Records the second of a sample just stored whose start is within its key's
    /// millisecond of a whole second, but not on it (``mayHaveTwin(_:)``).
    func noteNearSecond(_ sample: Sample, typeID: Int64) throws {
        let start = sample.start.timeIntervalSince1970
        guard start.rounded(.down) != start, let millisecond = Int64(roundingSaturating: start * 1000),
            millisecond % 1000 == 0
        else { return }
        let second = millisecond / 1000
        try db.execute(
            sql: "INSERT OR IGNORE INTO sample_near_second (type_id, second) VALUES (?, ?)", arguments: [typeID, second])
        if nearSeconds != nil { nearSeconds?[sample.type.identifier, default: []].insert(second) }
    }

    /// What writing a record did: it was added; it updated what was stored (a day's rings
    /// from a newer export, a workout given the route points it was stored without); or it
    /// was stored already and nothing changed.
    enum RecordWrite {
        case added, updated, unchanged

        init(added: Bool) { self = added ? .added : .unchanged }
    }

    /// Stores a day's rings. A day already stored is replaced only by a reading at least as
    /// recent (`asOf`, the export's date) whose figures differ: an older export imported
    /// later never overwrites a newer one.
    func writeSummary(_ summary: ActivitySummary) throws -> RecordWrite {
        let figures: [(any DatabaseValueConvertible)?] = [
            summary.activeEnergyBurned, summary.activeEnergyBurnedGoal, summary.activeEnergyBurnedUnit,
            summary.appleMoveTime, summary.appleMoveTimeGoal, summary.appleExerciseTime, summary.appleExerciseTimeGoal,
            summary.appleStandHours, summary.appleStandHoursGoal,
        ]
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
        insertSummary.bind(summary.asOf)
        if try insertSummary.run() == 1 { return .added }
        let asOf = summary.asOf?.timeIntervalSince1970
        try db.execute(
            sql: """
                UPDATE activity_summary SET (active_energy_burned, active_energy_burned_goal,
                    active_energy_burned_unit, apple_move_time, apple_move_time_goal, apple_exercise_time,
                    apple_exercise_time_goal, apple_stand_hours, apple_stand_hours_goal, as_of) = (?,?,?,?,?,?,?,?,?,?)
                WHERE date = ? AND coalesce(?, -1e300) >= coalesce(as_of, -1e300)
                    AND (active_energy_burned, active_energy_burned_goal, active_energy_burned_unit, apple_move_time,
                        apple_move_time_goal, apple_exercise_time, apple_exercise_time_goal, apple_stand_hours,
                        apple_stand_hours_goal) IS NOT (?,?,?,?,?,?,?,?,?)
                """,
            arguments: StatementArguments(figures + [asOf, summary.dateComponents, asOf] + figures))
        return db.changesCount == 1 ? .updated : .unchanged
    }

    func writeClinical(_ record: ClinicalRecord, key: ContentKey) throws -> Bool {
        insertClinical.bind(key.bytes)
        insertClinical.bind(record.type)
        insertClinical.bind(record.identifier)
        insertClinical.bind(record.sourceName)
        insertClinical.bind(record.sourceURL)
        insertClinical.bind(record.fhirVersion)
        insertClinical.bind(record.receivedDate)
        insertClinical.bind(record.resourceFilePath)
        insertClinical.bind(record.resourceJSON)
        return try insertClinical.run() == 1
    }

    func writeAudiogram(_ audiogram: Audiogram, key: ContentKey) throws -> Bool {
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

    func writeECG(_ ecg: Electrocardiogram, key: ContentKey) throws -> Bool {
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

    func writeRaw(_ element: RawElement, key: ContentKey) throws -> Bool {
        insertRaw.bind(key.bytes)
        insertRaw.bind(element.name)
        insertRaw.bind(try JSONText.encode(element))
        return try insertRaw.run() == 1
    }

    /// Replaces the stored `Me` characteristics with `characteristics`, read from an export
    /// made at `asOf`, unless those stored come from a more recent export. Returns whether
    /// they were replaced.
    @discardableResult
    package func writeCharacteristics(_ characteristics: [MetadataEntry], asOf: Date?) throws -> Bool {
        guard !characteristics.isEmpty else { return false }
        let newest = try Double.fetchOne(db, sql: "SELECT max(coalesce(as_of, -1e300)) FROM characteristic")
        if let newest, newest > asOf?.timeIntervalSince1970 ?? -1e300 { return false }
        try db.execute(sql: "DELETE FROM characteristic")
        for entry in characteristics {
            try db.execute(
                sql: "INSERT OR REPLACE INTO characteristic (key, value, as_of) VALUES (?, ?, ?)",
                arguments: [entry.key, entry.value, asOf?.timeIntervalSince1970])
        }
        return true
    }

    /// Records a finished import (used to recognise the same input next time).
    package func recordImport(_ run: ImportRun) throws {
        try db.execute(
            sql: """
                INSERT INTO import_run (fingerprint, path, input_kind, started_at, finished_at, locale, export_date,
                    export_version, bytes, records_read, records_added, duplicates, content_hash)
                    VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)
                """,
            arguments: [
                run.fingerprint, run.path, run.inputKind, run.startedAt.timeIntervalSince1970,
                run.finishedAt.timeIntervalSince1970, run.locale, run.exportDate?.timeIntervalSince1970,
                run.exportVersion, run.bytes, run.recordsRead, run.recordsAdded, run.duplicates, run.contentHash,
            ])
    }
}
