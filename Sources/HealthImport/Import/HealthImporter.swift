import Foundation
import HealthCore
import HealthImportReader
import HealthPostgres
import HealthSQLite

/// Imports an Apple Health export — `export.zip`, `export.xml` or an unpacked folder —
/// into a store: the SQLite file (``init(database:options:)``) or one user's samples in
/// PostgreSQL (``init(store:options:)``). One importer for both; only the transaction is the
/// store's own (``ImportDestination``).
///
/// The export is read on a thread of its own while the store writes (``ImportPipeline``):
/// streaming with constant memory, at most a few thousand records in flight. The whole
/// import is one transaction: it either completes or leaves the store exactly as it was.
/// Re-importing is idempotent (content keys), and an input identical to one imported before
/// is recognised by its fingerprint without being read (``SourceIdentity``; a file changed
/// moments before its last import is hashed in full instead). No thread of the cooperative
/// pool waits long: the long parts (hashing, SQLite's transaction) run on threads of their
/// own.
///
/// ```swift
/// let database = try HealthDatabase(path: "health.sqlite")
/// let summary = try await HealthImporter(database: database).run(path: "export.zip")
/// print(summary.totalAdded, summary.totalDuplicates)
/// ```
public struct HealthImporter: Sendable {
    /// Settings of an import.
    public struct Options: Sendable {
        /// Import even when an identical input was imported before.
        public var force = false
        /// Records per batch handed from the parser to the writer.
        public var batchSize = 4096
        /// Seconds between progress callbacks.
        public var progressInterval: TimeInterval = 0.5
        /// Most bytes a zip's entries may inflate to, all together (`nil`: no cap, the
        /// command line's default: the person imports their own file). Past it the import
        /// fails with ``ImportError/Code/zipBomb`` before storing anything. The server sets
        /// it from the upload's size (`ServerConfiguration.maxInflationRatio`).
        public var maxInflatedBytes: Int64?

        public init() {}

        /// What the reader is told.
        var reading: AppleExportReader.Options { AppleExportReader.Options(maxInflatedBytes: maxInflatedBytes) }
    }

    let destination: any ImportDestination
    public var options: Options

    /// An importer into the SQLite store `database`.
    public init(database: HealthDatabase, options: Options = Options()) {
        self.destination = SQLiteImportDestination(database: database)
        self.options = options
    }

    /// An importer into one user's samples in PostgreSQL (`database.store(for: userID)`).
    public init(store: PostgresHealthStore, options: Options = Options()) {
        self.destination = PostgresImportDestination(store: store)
        self.options = options
    }

    /// Runs the import. `progress` is called from the writing side every
    /// `options.progressInterval` seconds; keep it short.
    public func run(path: String, progress: (@Sendable (ImportProgress) -> Void)? = nil) async throws -> ImportSummary {
        let started = Date()
        let options = self.options
        // Opening reads a zip's directory and peeks at its XML entries: milliseconds, done
        // here, so that recognising an input imported before waits for no other thread (the
        // full read, and a content hash, run on threads of their own).
        let opened = Exclusive(try AppleExportReader(path: path, options: options.reading))
        let identity = try opened.value.identity()
        var summary = ImportSummary(
            inputKind: opened.value.kind, path: path, databasePath: destination.importLabel,
            fingerprint: identity.quickKey)
        summary.refusedEntries = opened.value.refusedEntries
        let previous = try await destination.importRun(fingerprint: identity.quickKey)
        if try await Self.isImported(opened, identity: identity, previous: previous, options) {
            summary.alreadyImported = previous
            summary.elapsed = Date().timeIntervalSince(started)
            return summary
        }
        let input = ImportInput(
            reader: opened, batchSize: options.batchSize, started: started, progressInterval: options.progressInterval,
            progress: progress)
        let unwritten = summary
        let written = try await destination.write(input) { reading, counts in
            var summary = unwritten
            summary.record(reading, counts, started: started)
            return summary.run(reading, started: started)
        }
        summary.record(written.reading, written.counts, started: started)
        summary.phases["commit"] = Date().timeIntervalSince(written.commitStarted)
        summary.elapsed = Date().timeIntervalSince(started)
        return summary
    }
}

extension HealthImporter {
    /// Whether an input was imported before and need not be read: `previous` is the last
    /// import of its quick identity, trusted when that import started well after the
    /// input's files last changed, else only when the full content hash agrees (hashed on a
    /// thread of its own: it reads the whole input).
    static func isImported(
        _ reader: Exclusive<AppleExportReader>, identity: SourceIdentity, previous: ImportRun?, _ options: Options
    ) async throws -> Bool {
        guard !options.force, let previous else { return false }
        if identity.isTrusted(importStartedAt: previous.startedAt) { return true }
        guard let hash = previous.contentHash else { return false }
        return try await BlockingWork.run("healthpipe-import-hash") { try reader.value.contentHash() == hash }
    }
}

extension ImportSummary {
    /// Takes the figures of a finished read and what the store's writer counted.
    mutating func record(_ reading: ExportReading, _ counts: ImportCounts, started: Date) {
        phases["read"] = Date().timeIntervalSince(started)
        exportInfo = reading.info
        bytes = reading.bytesRead
        recordsRead = reading.recordsRead
        warnings = reading.warnings
        routeFilesLoaded = reading.routeFilesLoaded
        routePoints = reading.routePoints
        clinicalResourcesLoaded = reading.clinicalResourcesLoaded
        contentHash = reading.contentHash
        added = counts.added
        duplicates = counts.duplicates
        updated = counts.updated
        addedByType = counts.addedByType
    }

    /// The run a store records, from this summary's counts.
    func run(_ reading: ExportReading, started: Date) -> ImportRun {
        ImportRun(
            fingerprint: fingerprint, path: path, inputKind: inputKind, startedAt: started, finishedAt: Date(),
            locale: reading.info.locale, exportDate: reading.info.exportDate, exportVersion: reading.info.exportVersion,
            bytes: reading.bytesRead, recordsRead: reading.recordsRead, recordsAdded: totalAdded,
            duplicates: totalDuplicates, contentHash: reading.contentHash)
    }
}
