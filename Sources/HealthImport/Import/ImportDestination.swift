import Foundation
import HealthCore
import HealthImportReader
import HealthPostgres
import HealthSQLite

/// A store an import writes into, in one transaction of its own kind; ``HealthImporter``
/// does everything else the same for both.
protocol ImportDestination: Sendable {
    /// How a summary names the store: the SQLite file's path, or the PostgreSQL user.
    var importLabel: String { get }

    /// The last import of an input with this quick fingerprint, if any.
    func importRun(fingerprint: String) async throws -> ImportRun?

    /// In one transaction: every record `input` reads, the export's characteristics, then the
    /// run `finish` makes of what was read and counted. Tried once: a reader is read once.
    func write(
        _ input: ImportInput, finish: @escaping @Sendable (ExportReading, ImportCounts) -> ImportRun
    ) async throws -> ImportWritten
}

/// What a destination is handed: the opened reader and how to read it.
struct ImportInput: Sendable {
    let reader: Exclusive<AppleExportReader>
    let batchSize: Int
    let started: Date
    let progressInterval: TimeInterval
    let progress: (@Sendable (ImportProgress) -> Void)?

    /// The pipeline's `written` callback: `progress` at most every `progressInterval`.
    func reporting() -> (_ bytes: Int64, _ records: Int) -> Void {
        ImportPipeline.reporting(progress, reader: reader.value, started: started, interval: progressInterval)
    }
}

/// What a store's writer counted in an import.
struct ImportCounts: Sendable {
    var added: [HealthRecord.Family: Int]
    var duplicates: [HealthRecord.Family: Int]
    var updated: [HealthRecord.Family: Int]
    var addedByType: [String: Int]
}

/// A finished transaction: what was read, what was written, and when the commit started.
struct ImportWritten: Sendable {
    let reading: ExportReading
    let counts: ImportCounts
    let commitStarted: Date
}

/// A value used by one thread at a time, handed from one to the next (the reader: opened
/// on one thread, checked on another, read on a third, never two at once).
struct Exclusive<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The SQLite file: GRDB's write transaction is synchronous, so it runs on a thread of its
/// own, the parser on another (``ImportPipeline/run(_:into:batchSize:written:)``).
struct SQLiteImportDestination: ImportDestination {
    let database: HealthDatabase

    var importLabel: String { database.path }

    /// One indexed row: read here, without a thread of its own.
    func importRun(fingerprint: String) async throws -> ImportRun? {
        try database.importRun(fingerprint: fingerprint)
    }

    func write(
        _ input: ImportInput, finish: @escaping @Sendable (ExportReading, ImportCounts) -> ImportRun
    ) async throws -> ImportWritten {
        try await BlockingWork.run("healthpipe-import") {
            try database.importWrite { writer in
                let reading = try ImportPipeline.run(
                    input.reader.value, into: writer, batchSize: input.batchSize, written: input.reporting())
                try writer.writeCharacteristics(reading.info.characteristics, asOf: reading.info.exportDate)
                let counts = ImportCounts(
                    added: writer.added, duplicates: writer.duplicates, updated: writer.updated,
                    addedByType: writer.addedByType)
                try writer.recordImport(finish(reading, counts))
                return ImportWritten(reading: reading, counts: counts, commitStarted: Date())
            }
        }
    }
}

/// One user's samples in PostgreSQL: the writer is async, so batches are awaited on the
/// caller's task while the parser runs on a thread of its own (no thread waits for the
/// writer).
struct PostgresImportDestination: ImportDestination {
    let store: PostgresHealthStore

    var importLabel: String { "postgres user \(store.userID)" }

    func importRun(fingerprint: String) async throws -> ImportRun? {
        try await store.importRun(fingerprint: fingerprint)
    }

    func write(
        _ input: ImportInput, finish: @escaping @Sendable (ExportReading, ImportCounts) -> ImportRun
    ) async throws -> ImportWritten {
        // Tried once: the reader cannot be read again (a deadlock is a StoreBusyError).
        try await store.write(attempts: 1) { writer in
            let reading = try await ImportPipeline.run(
                input.reader.value, batchSize: input.batchSize, prepare: PreparedBatch.init,
                write: { batch in try await writer.write(batch.records, keys: batch.keys) }, written: input.reporting())
            try await writer.flush()
            try await writer.writeCharacteristics(reading.info.characteristics, asOf: reading.info.exportDate)
            let counts = ImportCounts(
                added: writer.added, duplicates: writer.duplicates, updated: writer.updated,
                addedByType: writer.addedByType)
            try await writer.recordImport(finish(reading, counts))
            return ImportWritten(reading: reading, counts: counts, commitStarted: Date())
        }
    }
}

/// A batch as the PostgreSQL writer takes it: its records and their content keys, computed
/// on the parsing thread (the writer, the slower side, only writes).
private struct PreparedBatch: Sendable {
    let records: [HealthRecord]
    let keys: [ContentKey]

    init(_ records: [HealthRecord]) {
        self.records = records
        self.keys = records.map(\.contentKey)
    }
}
