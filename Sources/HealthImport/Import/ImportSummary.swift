import Foundation
import HealthCore
import HealthSQLite

/// What an import did, for the summary line and for tests.
public struct ImportSummary: Sendable {
    /// `zip`, `xml` or `folder`.
    public var inputKind: String
    public var path: String
    public var databasePath: String
    /// The quick identity of the input (names, sizes and times of what is read; a zip's CRCs).
    public var fingerprint: String
    /// The identity of the full content read (set once the import has read it).
    public var contentHash: String?
    /// Set when the identical input had been imported before: nothing was read.
    public var alreadyImported: ImportRun?
    public var exportInfo = ExportInfo()
    /// Bytes of the main XML parsed.
    public var bytes: Int64 = 0
    /// Top-level elements read from the XML (plus ECG files).
    public var recordsRead = 0
    public var added: [HealthRecord.Family: Int] = [:]
    public var duplicates: [HealthRecord.Family: Int] = [:]
    /// Records that replaced an older reading (a day's activity summary from a newer export).
    public var updated: [HealthRecord.Family: Int] = [:]
    /// Samples added per HealthKit type (correlation members and workouts included).
    public var addedByType: [String: Int] = [:]
    public var routeFilesLoaded = 0
    public var routePoints = 0
    public var clinicalResourcesLoaded = 0
    /// Things read but not modelled, or files that were referenced but missing.
    public var warnings: [String: Int] = [:]
    public var refusedEntries: [String] = []
    public var elapsed: TimeInterval = 0
    /// Seconds spent in each phase: `read` (read and write everything: the main XML, then
    /// the GPX, FHIR and ECG files), `commit` (the transaction's commit).
    public var phases: [String: TimeInterval] = [:]

    public var totalAdded: Int { added.values.reduce(0, +) }
    public var totalDuplicates: Int { duplicates.values.reduce(0, +) }
    public var totalUpdated: Int { updated.values.reduce(0, +) }

    /// Throughput of the main XML, in MB/s (10^6 bytes).
    public var megabytesPerSecond: Double { elapsed > 0 ? Double(bytes) / 1e6 / elapsed : 0 }
}

/// Progress of a running import.
public struct ImportProgress: Sendable {
    public var bytes: Int64
    public var totalBytes: Int64
    public var records: Int
    public var elapsed: TimeInterval

    public var fraction: Double? { totalBytes > 0 ? min(1, Double(bytes) / Double(totalBytes)) : nil }
    public var megabytesPerSecond: Double { elapsed > 0 ? Double(bytes) / 1e6 / elapsed : 0 }
    public var secondsRemaining: Double? {
        guard let fraction, fraction > 0, elapsed > 0 else { return nil }
        return elapsed / fraction - elapsed
    }
}
