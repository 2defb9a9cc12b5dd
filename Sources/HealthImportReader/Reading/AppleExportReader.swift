import Foundation
import HealthCore

/// Reads an Apple Health export — `export.zip`, `export.xml` or an unpacked folder — into
/// ``HealthRecord`` values, knowing nothing of where they go.
///
/// Streaming with constant memory: records come in batches, in the export's order. A
/// record that links to a file (a workout route's GPX, a clinical record's FHIR JSON) comes
/// where it stands, with the file's content read into it then (every source reads its files
/// by position while the main XML streams); the ECG CSVs come last. The caller stores them
/// (``HealthRecordSink``):
///
/// ```swift
/// let reader = try AppleExportReader(path: "export.zip")
/// let reading = try reader.read { batch, _ in try writer.write(batch) }
/// print(reading.recordsRead, reading.routePoints)
/// ```
public final class AppleExportReader {
    let source: any ExportSource

    /// Settings of a read.
    public struct Options: Sendable {
        /// Most bytes a zip's entries may inflate to, all reads of the import together;
        /// `nil`: no cap. Past it the read fails with ``ImportError/Code/zipBomb``, naming
        /// the entry: before inflating an entry whose declared size would pass it, or as
        /// soon as the bytes inflated do, never after. Files and folders are not capped.
        public var maxInflatedBytes: Int64?
        /// Most points a workout's route files may hold together. A route that would pass
        /// it is stored without its points, with a note, and the rest of the import goes on.
        /// A real route has a point a second at most (360,000 in 100 hours); the cap bounds
        /// what a hostile file holds in memory at once (about 112 bytes a point).
        public var maxRoutePoints: Int
        /// Most bytes of a clinical record's FHIR JSON, read whole (real ones are kilobytes).
        /// A larger one is left out, with a note.
        public var maxLinkedFileBytes: Int
        /// Most bytes of an ECG CSV, read whole: a 30-second recording is about 150 kB, and
        /// parsing holds about 15 times the file. A larger one is left out, with a note.
        public var maxElectrocardiogramBytes: Int

        public init(
            maxInflatedBytes: Int64? = nil, maxRoutePoints: Int = 1_000_000, maxLinkedFileBytes: Int = 32 << 20,
            maxElectrocardiogramBytes: Int = 2 << 20
        ) {
            self.maxInflatedBytes = maxInflatedBytes
            self.maxRoutePoints = maxRoutePoints
            self.maxLinkedFileBytes = maxLinkedFileBytes
            self.maxElectrocardiogramBytes = maxElectrocardiogramBytes
        }
    }

    let options: Options

    /// Opens `path`: a zip (by its magic bytes), a folder, or an XML file. Fails with an
    /// ``ImportError`` when it is none of them or holds no Apple Health export.
    public convenience init(path: String, options: Options = Options()) throws {
        try self.init(source: AppleExportReader.openSource(path, options: options), options: options)
    }

    init(source: any ExportSource, options: Options = Options()) {
        self.source = source
        self.options = options
    }

    /// `zip`, `xml` or `folder`.
    public var kind: String { source.kind }
    /// A name for the main XML in messages (`export.zip: apple_health_export/export.xml`).
    public var mainXMLName: String { source.mainXMLName }
    /// The main XML's size (uncompressed), for progress.
    public var mainXMLSize: Int64 { source.mainXMLSize }
    /// Zip entries refused as unsafe (zip-slip).
    public var refusedEntries: [String] { source.refusedEntries }

    /// The cheap identity of what ``read(batchSize:_:)`` reads, without reading it.
    public func identity() throws -> SourceIdentity { try source.identity() }

    /// The identity of the full content, read in full (``ExportReading/contentHash`` gives
    /// it for free after a read).
    public func contentHash() throws -> String { try source.contentHash(mainXML: nil) }

    /// Reads every record and hands them to `deliver` in batches of at most `batchSize`,
    /// with the bytes of the main XML parsed so far. Errors name the file, the line and
    /// byte, and the record; an error thrown by `deliver` stops the read and is rethrown.
    /// Each batch is handed over (`consuming`): the reader keeps no reference to it, so
    /// `deliver` may take its records apart without copying them.
    public func read(
        batchSize: Int = 4096, _ deliver: (_ batch: consuming [HealthRecord], _ bytesRead: Int64) throws -> Void
    ) throws -> ExportReading {
        try withoutActuallyEscaping(deliver) { try read(batchSize: max(1, batchSize), deliver: $0) }
    }

    private func read(
        batchSize: Int, deliver: @escaping (_ batch: consuming [HealthRecord], _ bytesRead: Int64) throws -> Void
    ) throws -> ExportReading {
        var reading = ExportReading()
        var batch: [HealthRecord] = []
        batch.reserveCapacity(batchSize)
        // A batch closes at `batchSize` records or 4,096 route points (about 0.4 MB): a batch
        // is held until written and several are in flight, so 100,000 points a batch took a
        // 1 GB import's peak memory from 90 to 138 MiB.
        var points = 0
        var scanner = XMLScanner(
            handler: ExportXMLHandler { (record: consuming HealthRecord) in
                if record.linksToFiles {
                    // Read now, not held until the main XML ends: held back, a 4 GB export's
                    // 4,899 workouts grew the import's memory by about 17 MB (its peak by 8 MiB).
                    let linked = try self.withLinkedFiles(record, reading: &reading)
                    if case .workout(let workout) = linked { points += workout.routes.reduce(0) { $0 + $1.points.count } }
                    batch.append(linked)
                } else {
                    batch.append(consume record)
                }
                if batch.count >= batchSize || points >= 4_096 {
                    try deliver(Self.handOver(&batch, reserving: batchSize), reading.bytesRead)
                    points = 0
                }
            })
        defer { scanner.deallocate() }
        let name = source.mainXMLName
        var hasher = source.hashesMainXML ? StreamingContentHash() : nil
        try source.streamMainXML { chunk in
            do {
                reading.bytesRead += Int64(chunk.count)
                hasher?.update(chunk)
                try scanner.feed(chunk)
            } catch {
                throw AppleExportReader.describe(error, scanner: scanner, name: name)
            }
        }
        do { try scanner.finish() } catch { throw AppleExportReader.describe(error, scanner: scanner, name: name) }
        reading.info = scanner.handler.info
        // Beside the linked files' warnings, counted as they were read.
        reading.warnings.merge(scanner.handler.warnings, uniquingKeysWith: +)
        reading.recordsRead = scanner.handler.recordCount
        // A batch of ECGs closes at 64 of them or 262,144 voltages (2 MB; a 30-second
        // recording has 15,360).
        var voltages = 0
        for path in source.electrocardiogramPaths() {
            guard let data = try linkedFile(path, limit: options.maxElectrocardiogramBytes, missing: nil, reading: &reading)
            else { continue }
            let electrocardiogram = try ECGReader.read(data, fileName: path)
            voltages += electrocardiogram.voltages.count
            batch.append(.electrocardiogram(electrocardiogram))
            reading.recordsRead += 1
            if batch.count >= 64 || voltages >= 262_144 {
                try deliver(Self.handOver(&batch, reserving: 0), reading.bytesRead)
                voltages = 0
            }
        }
        if !batch.isEmpty { try deliver(Self.handOver(&batch, reserving: 0), reading.bytesRead) }
        reading.contentHash = try source.contentHash(mainXML: hasher?.finish())
        return reading
    }

    /// The records of `batch`, which starts again empty (with room for `reserving`): the
    /// array returned holds the only reference to its storage.
    private static func handOver(_ batch: inout [HealthRecord], reserving: Int) -> [HealthRecord] {
        var full: [HealthRecord] = []
        full.reserveCapacity(reserving)
        swap(&full, &batch)
        return full
    }

    /// The warning of a route file that is not a well-formed GPX.
    static let unreadableRoute = "route left without its points: its GPX file is not well-formed"
    /// The warning of a well-formed route file without a track point.
    static let pointlessRoute = "route left without its points: its file holds no GPX track point"

    /// `record` with the content of the files it links to; a missing file, or a route file
    /// that is not a well-formed GPX, is a warning.
    private func withLinkedFiles(_ record: HealthRecord, reading: inout ExportReading) throws -> HealthRecord {
        switch record {
        case .workout(var workout):
            // The cap holds for the workout's routes together (eight routes may name one file).
            var budget = options.maxRoutePoints
            for index in workout.routes.indices where workout.routes[index].needsPoints {
                // Streamed: a day-long route's GPX is tens of megabytes, and only its points are kept.
                guard let path = workout.routes[index].filePath else {
                    reading.warnings["route file referenced but missing", default: 0] += 1
                    continue
                }
                let read: (points: [RoutePoint], altered: Int)?
                do {
                    read = try GPXReader.plausiblePoints(name: path, maxPoints: budget) {
                        try source.streamFile(exportPath: path, isRoute: true, $0)
                    }
                } catch let refused as LinkedFileRefused {
                    reading.warnings[refused.note, default: 0] += 1
                    continue
                } catch let error as ImportError where error.code == .malformedFile {
                    // One route file emptied or cut short kept years of data out: the workout
                    // is kept without its points, as for a missing file (a later export with a
                    // good file gives them).
                    reading.warnings[Self.unreadableRoute, default: 0] += 1
                    continue
                }
                guard let (points, altered) = read else {
                    reading.warnings["route file referenced but missing", default: 0] += 1
                    continue
                }
                // Well-formed, and no track point in it (an HTML page saved under the name):
                // said, as for a file that is not well-formed.
                if points.isEmpty { reading.warnings[Self.pointlessRoute, default: 0] += 1 }
                workout.routes[index].points = points
                budget -= points.count
                if altered > 0 { reading.warnings[RoutePointWarning.text, default: 0] += altered }
                reading.routeFilesLoaded += 1
                reading.routePoints += workout.routes[index].points.count
            }
            return .workout(workout)
        case .clinicalRecord(var clinical):
            let missing = "clinical resource referenced but missing"
            guard let path = clinical.resourceFilePath else {
                reading.warnings[missing, default: 0] += 1
                return record
            }
            guard let data = try linkedFile(path, limit: options.maxLinkedFileBytes, missing: missing, reading: &reading)
            else { return record }
            clinical.resourceJSON = String(decoding: data, as: UTF8.self)
            reading.clinicalResourcesLoaded += 1
            return .clinicalRecord(clinical)
        default:
            return record
        }
    }

    /// A linked file read whole; `nil` when it is missing (counted as `missing`) or refused
    /// (counted under the refusal's note).
    private func linkedFile(_ path: String, limit: Int, missing: String?, reading: inout ExportReading) throws -> Data? {
        do {
            if let data = try source.readFile(exportPath: path, limit: limit) { return data }
            if let missing { reading.warnings[missing, default: 0] += 1 }
        } catch let refused as LinkedFileRefused {
            reading.warnings[refused.note, default: 0] += 1
        }
        return nil
    }

    static func openSource(_ path: String, options: Options = Options()) throws -> any ExportSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(.notFound, file: path, "does not exist")
        }
        let url = URL(fileURLWithPath: path)
        if isDirectory.boolValue { return try FileExportSource(folder: url) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError(.unreadable, file: path, "cannot be read")
        }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        try? handle.close()
        if magic.isEmpty { throw ImportError(.empty, file: path, "is empty") }
        if magic.starts(with: [0x50, 0x4B]) { return try ZipExportSource(url: url, maxInflatedBytes: options.maxInflatedBytes) }
        return try FileExportSource(xml: url)
    }

    /// Names the file, the place and the record for a parse error.
    private static func describe(_ error: any Error, scanner: XMLScanner<ExportXMLHandler>, name: String) -> any Error {
        let record = scanner.handler.recordCount + 1
        switch error {
        case let error as XMLScanError:
            return ImportError(.malformedXML, file: name, "\(error.description) (in top-level record \(record))")
        case let error as ExportFormatError:
            return ImportError(
                .invalidRecord, file: name, "at \(scanner.currentLocation), top-level record \(record): \(error)")
        default:
            return error
        }
    }
}

/// What a read found besides the records.
public struct ExportReading: Sendable {
    /// The export's locale, date, version and `Me` characteristics.
    public var info = ExportInfo()
    /// Things read but not modelled, and files referenced but missing, by description.
    public var warnings: [String: Int] = [:]
    /// Bytes of the main XML parsed.
    public var bytesRead: Int64 = 0
    /// Top-level elements of the main XML, plus ECG files.
    public var recordsRead = 0
    public var routeFilesLoaded = 0
    public var routePoints = 0
    public var clinicalResourcesLoaded = 0
    /// The identity of everything read (``AppleExportReader/contentHash()``).
    public var contentHash = ""
}

extension HealthRecord {
    /// Whether the record's content is partly in another file of the export, still unread.
    fileprivate var linksToFiles: Bool {
        switch self {
        case .workout(let workout): workout.routes.contains { $0.needsPoints }
        case .clinicalRecord(let record): record.resourceJSON == nil && record.resourceFilePath != nil
        default: false
        }
    }
}

extension WorkoutRoute {
    fileprivate var needsPoints: Bool { points.isEmpty && filePath != nil }
}

/// The warning a route point that no GPS receiver reports leaves (``RoutePoint/plausible``):
/// a position off the Earth left out, an impossible elevation, speed, course or accuracy
/// removed from its point.
public enum RoutePointWarning {
    public static let text = "route point outside what a GPS reports (left out, or the reading removed)"
}
