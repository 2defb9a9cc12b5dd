import Foundation
import GRDB
import HealthCore

extension RecordWriter {
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
            findSample.bind(try typeID(sample.type))
            findSample.bind(sample.start)
        }
        findSample.bind(key)
        return try findSample.fetchInt()
    }

    /// What writing an activity summary did.
    enum SummaryWrite { case added, updated, unchanged }

    /// Stores a day's rings. A day already stored is replaced only by a reading at least as
    /// recent (`asOf`, the export's date) whose figures differ: an older export imported
    /// later never overwrites a newer one.
    func writeSummary(_ summary: ActivitySummary) throws -> SummaryWrite {
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
