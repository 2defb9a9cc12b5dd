import Foundation
import HealthCore
import HealthStore

/// Imports an Apple Health export — `export.zip`, `export.xml` or an unpacked folder —
/// into a ``HealthDatabase``.
///
/// Streaming with constant memory: the XML is parsed on one thread while another writes,
/// with at most a few thousand records in flight. The whole import is one transaction: it
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

        public init() {}
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
        let source = try HealthImporter.openSource(path)
        let identity = try source.identity()
        let fingerprint = identity.quickKey
        var summary = ImportSummary(
            inputKind: source.kind, path: path, databasePath: database.path, fingerprint: fingerprint)
        summary.refusedEntries = source.refusedEntries
        if !options.force, let previous = try database.importRun(fingerprint: fingerprint),
            try identity.isTrusted(by: previous)
                || previous.contentHash.map({ try source.contentHash(mainXML: nil) == $0 }) == true
        {
            summary.alreadyImported = previous
            summary.elapsed = Date().timeIntervalSince(started)
            return summary
        }
        let options = self.options
        var commitStarted = Date()
        try database.write { writer in
            let job = ParseJob(source: source, batchSize: options.batchSize)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                job.run()
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
            var lastReport = Date()
            do {
                while let batch = try job.channel.receive() {
                    try writer.write(batch)
                    job.channel.giveBack(batch)
                    if let progress, Date().timeIntervalSince(lastReport) >= options.progressInterval {
                        lastReport = Date()
                        let (bytes, records) = job.channel.progress
                        progress(
                            ImportProgress(
                                bytes: bytes, totalBytes: source.mainXMLSize, records: records,
                                elapsed: lastReport.timeIntervalSince(started)))
                    }
                }
            } catch {
                job.channel.stop()
                done.wait()
                throw error
            }
            done.wait()
            let xmlDone = Date()
            summary.phases["xml"] = xmlDone.timeIntervalSince(started)
            summary.exportInfo = job.info
            summary.bytes = job.bytesRead
            summary.recordsRead = job.recordsRead
            summary.warnings = job.warnings
            try HealthImporter.attachFiles(source: source, writer: writer, summary: &summary)
            summary.contentHash = try source.contentHash(mainXML: job.mainXMLHash)
            summary.phases["files"] = Date().timeIntervalSince(xmlDone)
            try writer.writeCharacteristics(job.info.characteristics, asOf: job.info.exportDate)
            summary.added = writer.added
            summary.duplicates = writer.duplicates
            summary.updated = writer.updated
            summary.addedByType = writer.addedByType
            summary.elapsed = Date().timeIntervalSince(started)
            try writer.recordImport(
                ImportRun(
                    fingerprint: fingerprint, path: path, inputKind: source.kind, startedAt: started, finishedAt: Date(),
                    locale: job.info.locale, exportDate: job.info.exportDate, exportVersion: job.info.exportVersion,
                    bytes: job.bytesRead, recordsRead: summary.recordsRead, recordsAdded: summary.totalAdded,
                    duplicates: summary.totalDuplicates, contentHash: summary.contentHash))
            commitStarted = Date()
        }
        summary.phases["commit"] = Date().timeIntervalSince(commitStarted)
        summary.elapsed = Date().timeIntervalSince(started)
        return summary
    }

    /// Opens `path` as a zip (by its magic bytes), a folder, or an XML file.
    static func openSource(_ path: String) throws -> any ExportSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(file: path, "does not exist")
        }
        let url = URL(fileURLWithPath: path)
        if isDirectory.boolValue { return try FileExportSource(folder: url) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ImportError(file: path, "cannot be read") }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        try? handle.close()
        if magic.isEmpty { throw ImportError(file: path, "is empty") }
        if magic.starts(with: [0x50, 0x4B]) { return try ZipExportSource(url: url) }
        return try FileExportSource(xml: url)
    }

    /// After the main XML: GPX routes and FHIR resources it links to, and the ECG CSVs.
    private static func attachFiles(source: any ExportSource, writer: RecordWriter, summary: inout ImportSummary) throws {
        for (routeID, path) in writer.pendingRouteFiles {
            guard let data = try source.readFile(exportPath: path) else {
                summary.warnings["route file referenced but missing", default: 0] += 1
                continue
            }
            let points = try GPXReader.points(data, name: path)
            try writer.attachRoutePoints(points, route: routeID)
            summary.routeFilesLoaded += 1
            summary.routePoints += points.count
        }
        for (recordID, path) in writer.pendingClinicalFiles {
            guard let data = try source.readFile(exportPath: path) else {
                summary.warnings["clinical resource referenced but missing", default: 0] += 1
                continue
            }
            try writer.attachClinicalResource(String(decoding: data, as: UTF8.self), recordID: recordID)
            summary.clinicalResourcesLoaded += 1
        }
        for path in source.electrocardiogramPaths() {
            guard let data = try source.readFile(exportPath: path) else { continue }
            try writer.write(.electrocardiogram(ECGReader.read(data, fileName: path)))
            summary.recordsRead += 1
        }
    }
}

/// The parsing half of an import, run on its own thread.
private final class ParseJob: @unchecked Sendable {
    let source: any ExportSource
    let channel = RecordChannel()
    let batchSize: Int
    private(set) var info = ExportInfo()
    private(set) var warnings: [String: Int] = [:]
    private(set) var bytesRead: Int64 = 0
    private(set) var recordsRead = 0
    /// The hash of the main XML's bytes, when the source needs it for its content hash.
    private(set) var mainXMLHash: ContentKey?
    private var batch: [KeyedRecord] = []

    init(source: any ExportSource, batchSize: Int) {
        self.source = source
        self.batchSize = batchSize
        batch.reserveCapacity(batchSize)
    }

    func run() {
        var scanner = XMLScanner(
            handler: ExportXMLHandler { [unowned self] record in
                batch.append(KeyedRecord(record: record, key: record.contentKey))
                if batch.count >= batchSize {
                    try channel.send(batch, bytesRead: bytesRead)
                    batch = channel.takeBack() ?? []
                    batch.removeAll(keepingCapacity: true)
                    batch.reserveCapacity(batchSize)
                }
            })
        defer { scanner.deallocate() }
        let name = source.mainXMLName
        var hasher = source.hashesMainXML ? StreamingContentHash() : nil
        do {
            try source.streamMainXML { chunk in
                do {
                    bytesRead += Int64(chunk.count)
                    hasher?.update(chunk)
                    try scanner.feed(chunk)
                } catch {
                    throw describe(error, scanner: scanner, name: name)
                }
            }
            do { try scanner.finish() } catch { throw describe(error, scanner: scanner, name: name) }
            if !batch.isEmpty { try channel.send(batch, bytesRead: bytesRead) }
            mainXMLHash = hasher?.finish()
            info = scanner.handler.info
            warnings = scanner.handler.warnings
            recordsRead = scanner.handler.recordCount
            channel.close()
        } catch {
            channel.close(error: error)
        }
    }

    /// Names the file, the place and the record for a parse error.
    private func describe(_ error: any Error, scanner: XMLScanner<ExportXMLHandler>, name: String) -> any Error {
        let record = scanner.handler.recordCount + 1
        switch error {
        case let error as XMLScanError:
            return ImportError(file: name, "\(error.description) (in top-level record \(record))")
        case let error as ExportFormatError:
            return ImportError(file: name, "at \(scanner.currentLocation), top-level record \(record): \(error)")
        default:
            return error
        }
    }
}
