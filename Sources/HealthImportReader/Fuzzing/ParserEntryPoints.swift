import Foundation
import HealthCore

/// Each parser over one in-memory input, for the fuzz targets under `Fuzz/` (libFuzzer
/// calls them thousands of times a second). What they find is what an import of a hostile
/// file would hit: the same code paths, without a database.
package enum ParserEntryPoints {
    /// Scans `data` as an `export.xml`, fed in chunks of `chunkSize` bytes (chunk edges are
    /// where a streaming scanner breaks), computing every record's content key. Returns
    /// the number of records read.
    package static func exportXML(_ data: Data, chunkSize: Int) throws -> Int {
        var count = 0
        var scanner = XMLScanner(
            handler: ExportXMLHandler { record in
                _ = record.contentKey
                count += 1
            }, initialCapacity: 4096)
        defer { scanner.deallocate() }
        var offset = 0
        let size = max(1, chunkSize)
        while offset < data.count {
            let end = min(data.count, offset + size)
            try scanner.feed(data.subdata(in: offset..<end))
            offset = end
        }
        try scanner.finish()
        return count
    }

    /// Reads `data` as a GPX route; returns the number of points.
    package static func gpx(_ data: Data) throws -> Int {
        try GPXReader.points(data, name: "fuzz.gpx").count
    }

    /// Reads `data` as an ECG CSV; returns the number of voltages.
    package static func electrocardiogram(_ data: Data) throws -> Int {
        try ECGReader.read(data, fileName: "fuzz.csv").voltages.count
    }

    /// Opens `data` as an `export.zip` and reads it as an import does — from a file, as
    /// imports do: ZIPFoundation's in-memory archives trap on a seek past their end
    /// (`Archive.MemoryFile.readData`), a path no import takes. Reads the main XML, the GPX
    /// and FHIR files its records link to, the ECG CSVs, every entry CRC-checked. Returns
    /// the records read.
    package static func exportZip(_ data: Data) throws -> Int {
        let url = scratchZip
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try AppleExportReader(path: url.path)
        _ = try reader.identity()
        var count = 0
        _ = try reader.read(batchSize: 64) { batch, _ in
            for record in batch { _ = record.contentKey }
            count += batch.count
        }
        return count
    }

    /// One file per process, written and removed for each input (in memory on Linux: `/dev/shm`).
    private static let scratchZip: URL = {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return URL(fileURLWithPath: folder).appendingPathComponent("healthpipe-fuzz-\(getpid()).zip")
    }()
}
