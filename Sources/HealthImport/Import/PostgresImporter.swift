import Foundation
import HealthCore
import HealthImportReader
import HealthPostgres

/// Imports an Apple Health export into one user's samples in PostgreSQL, as
/// ``HealthImporter`` does into SQLite: the same reader and pipeline (parsing on a thread
/// of its own, batches handed over through a bounded channel to the async writer, which
/// no thread waits for), one transaction, re-imports recognised by fingerprint.
///
/// ```swift
/// let store = database.store(for: userID)
/// let summary = try await PostgresImporter(store: store).run(path: "export.zip")
/// ```
public struct PostgresImporter: Sendable {
    public let store: PostgresHealthStore
    public var options: HealthImporter.Options

    public init(store: PostgresHealthStore, options: HealthImporter.Options = HealthImporter.Options()) {
        self.store = store
        self.options = options
    }

    /// Runs the import; `progress` is called from the writing thread every
    /// `options.progressInterval` seconds.
    public func run(path: String, progress: (@Sendable (ImportProgress) -> Void)? = nil) async throws -> ImportSummary {
        let started = Date()
        let (options, store) = (options, store)
        let opened = try await BlockingWork.run("healthpipe-import-open") {
            Exclusive(try AppleExportReader(path: path, options: options.reading))
        }
        let reader = opened.value
        let identity = try reader.identity()
        let fingerprint = identity.quickKey
        var summary = ImportSummary(
            inputKind: reader.kind, path: path, databasePath: "postgres user \(store.userID)", fingerprint: fingerprint)
        summary.refusedEntries = reader.refusedEntries
        let previous = try await store.importRun(fingerprint: fingerprint)
        if try await BlockingWork.run(
            "healthpipe-import-check",
            {
                try HealthImporter.isImported(opened.value, identity: identity, previous: previous, options)
            })
        {
            summary.alreadyImported = previous
            summary.elapsed = Date().timeIntervalSince(started)
            return summary
        }
        // Tried once: the reader cannot be read again (a deadlock is a StoreBusyError).
        let written = try await store.write(attempts: 1) { writer in
            let reader = opened.value
            let reading = try await ImportPipeline.run(
                reader, batchSize: options.batchSize, prepare: PreparedBatch.init,
                write: { batch in try await writer.write(batch.records, keys: batch.keys) },
                written: ImportPipeline.reporting(
                    progress, reader: reader, started: started, interval: options.progressInterval))
            var summary = summary
            summary.record(reading, started: started)
            try await writer.flush()
            try await writer.writeCharacteristics(reading.info.characteristics, asOf: reading.info.exportDate)
            summary.added = writer.added
            summary.duplicates = writer.duplicates
            summary.updated = writer.updated
            summary.addedByType = writer.addedByType
            try await writer.recordImport(summary.run(reading, started: started))
            return (summary, Date())
        }
        summary = written.0
        summary.phases["commit"] = Date().timeIntervalSince(written.1)
        summary.elapsed = Date().timeIntervalSince(started)
        return summary
    }
}

/// A value used by one thread at a time, handed from one to the next (the reader: opened
/// on one thread, checked on another, read on a third, never two at once).
private struct Exclusive<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A batch as the writer takes it: its records and their content keys, computed on the
/// parsing thread (the writer, the slower side, only writes).
private struct PreparedBatch: Sendable {
    let records: [HealthRecord]
    let keys: [ContentKey]

    init(_ records: [HealthRecord]) {
        self.records = records
        self.keys = records.map(\.contentKey)
    }
}
