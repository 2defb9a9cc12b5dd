import Foundation
import HealthCore
import HealthImportReader
import HealthSQLite

/// Imports an Apple Health export — `export.zip`, `export.xml` or an unpacked folder —
/// into a ``HealthDatabase``.
///
/// An ``AppleExportReader`` feeds the database's ``RecordWriter`` (``ImportPipeline``):
/// streaming with constant memory, the XML parsed on one thread while another writes, with
/// at most a few thousand records in flight. The whole import is one transaction: it
/// either completes or leaves the store exactly as it was. Re-importing is idempotent
/// (content keys), and an input identical to one imported before is recognised by its
/// fingerprint without being read (``SourceIdentity``; a file changed moments before its
/// last import is hashed in full instead).
///
/// ```swift
/// let database = try HealthDatabase(path: "health.sqlite")
/// let summary = try HealthImporter(database: database).run(path: "export.zip")
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

    public let database: HealthDatabase
    public var options: Options

    public init(database: HealthDatabase, options: Options = Options()) {
        self.database = database
        self.options = options
    }

    /// Runs the import on a thread of its own (``BlockingWork``), so that awaiting it holds
    /// no thread of the cooperative pool; otherwise as the synchronous `run(path:progress:)`.
    public func run(path: String, progress: (@Sendable (ImportProgress) -> Void)? = nil) async throws -> ImportSummary {
        try await BlockingWork.run("healthpipe-import") { try self.run(path: path, progress: progress) }
    }

    /// Runs the import. `progress` is called from the writing thread every
    /// `options.progressInterval` seconds; keep it short.
    public func run(path: String, progress: ((ImportProgress) -> Void)? = nil) throws -> ImportSummary {
        let started = Date()
        let reader = try AppleExportReader(path: path, options: self.options.reading)
        let identity = try reader.identity()
        let fingerprint = identity.quickKey
        var summary = ImportSummary(
            inputKind: reader.kind, path: path, databasePath: database.path, fingerprint: fingerprint)
        summary.refusedEntries = reader.refusedEntries
        let previous = try database.importRun(fingerprint: fingerprint)
        if try Self.isImported(reader, identity: identity, previous: previous, options) {
            summary.alreadyImported = previous
            summary.elapsed = Date().timeIntervalSince(started)
            return summary
        }
        let options = self.options
        var commitStarted = Date()
        try database.write { writer in
            let reading = try ImportPipeline.run(
                reader, into: writer, batchSize: options.batchSize,
                written: ImportPipeline.reporting(progress, reader: reader, started: started, interval: options.progressInterval))
            summary.record(reading, started: started)
            try writer.writeCharacteristics(reading.info.characteristics, asOf: reading.info.exportDate)
            summary.added = writer.added
            summary.duplicates = writer.duplicates
            summary.updated = writer.updated
            summary.addedByType = writer.addedByType
            summary.elapsed = Date().timeIntervalSince(started)
            try writer.recordImport(summary.run(reading, started: started))
            commitStarted = Date()
        }
        summary.phases["commit"] = Date().timeIntervalSince(commitStarted)
        summary.elapsed = Date().timeIntervalSince(started)
        return summary
    }
}

extension HealthImporter {
    /// Whether an input was imported before and need not be read: `previous` is the last
    /// import of its quick identity, trusted when that import started well after the
    /// input's files last changed, else only when the full content hash agrees.
    static func isImported(
        _ reader: AppleExportReader, identity: SourceIdentity, previous: ImportRun?, _ options: Options
    ) throws -> Bool {
        guard !options.force, let previous else { return false }
        return try identity.isTrusted(importStartedAt: previous.startedAt)
            || previous.contentHash.map({ try reader.contentHash() == $0 }) == true
    }
}

extension ImportSummary {
    /// Takes the figures of a finished read.
    mutating func record(_ reading: ExportReading, started: Date) {
        phases["read"] = Date().timeIntervalSince(started)
        exportInfo = reading.info
        bytes = reading.bytesRead
        recordsRead = reading.recordsRead
        warnings = reading.warnings
        routeFilesLoaded = reading.routeFilesLoaded
        routePoints = reading.routePoints
        clinicalResourcesLoaded = reading.clinicalResourcesLoaded
        contentHash = reading.contentHash
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
