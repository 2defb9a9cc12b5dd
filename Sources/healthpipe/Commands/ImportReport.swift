import Foundation
import HealthCore
import HealthImport

/// The human summary of an import.
enum ImportReport {
    /// `spans`: the store's, after the import — each kind's first and last day with data.
    static func render(_ summary: ImportSummary, spans: [SampleTypeSpan] = []) -> String {
        let ranges = DataRanges.lines(spans)
        let dataDays: [String] = ranges.isEmpty ? [] : ["  " + DataRanges.header()] + ranges.map { "    " + $0 }
        if let previous = summary.alreadyImported {
            let date = ISO8601DateFormatter().string(from: previous.finishedAt)
            let already = """
                Already imported: \(summary.path) is identical to import #\(previous.id) of \(date) \
                (\(count(previous.recordsAdded)) records added then). Nothing to do; use --force to read it again.
                """
            return ([already] + dataDays + ["Store: \(summary.databasePath)"]).joined(separator: "\n")
        }
        var lines: [String] = []
        let info = summary.exportInfo
        var header = "Imported \(summary.path) (\(summary.inputKind)"
        if let version = info.exportVersion { header += ", export version \(version)" }
        if let locale = info.locale { header += ", locale \(locale)" }
        header += ")"
        lines.append(header)
        lines.append(
            String(
                format: "  %@ of XML in %.2f s (%.1f MB/s); %@ records read, %@ added, %@ updated, %@ duplicates skipped",
                bytes(summary.bytes), summary.elapsed, summary.megabytesPerSecond, count(summary.recordsRead),
                count(summary.totalAdded), count(summary.totalUpdated), count(summary.totalDuplicates)))
        let phases = ["read", "commit"].compactMap { name in
            summary.phases[name].map { String(format: "%@ %.2f s", name, $0) }
        }
        if !phases.isEmpty { lines.append("  phases: " + phases.joined(separator: ", ")) }
        let families = HealthRecord.Family.allCases.filter {
            (summary.added[$0] ?? 0) + (summary.updated[$0] ?? 0) + (summary.duplicates[$0] ?? 0) > 0
        }
        if !families.isEmpty {
            lines.append("  by family (added / updated / duplicate):")
            for family in families {
                lines.append(
                    "    \(family.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)) "
                        + "\(count(summary.added[family] ?? 0)) / \(count(summary.updated[family] ?? 0)) / "
                        + "\(count(summary.duplicates[family] ?? 0))")
            }
        }
        if !summary.addedByType.isEmpty {
            lines.append("  samples added by type:")
            for (type, added) in summary.addedByType.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                let name = type.replacingOccurrences(of: "TypeIdentifier", with: ":")
                lines.append("    \(name.padding(toLength: 56, withPad: " ", startingAt: 0)) \(count(added))")
            }
        }
        if summary.routeFilesLoaded > 0 {
            lines.append("  routes: \(summary.routeFilesLoaded) GPX files, \(count(summary.routePoints)) points")
        }
        if summary.clinicalResourcesLoaded > 0 {
            lines.append("  clinical records: \(summary.clinicalResourcesLoaded) FHIR resources attached")
        }
        for (warning, times) in summary.warnings.sorted(by: { $0.key < $1.key }) {
            lines.append("  note: \(warning) (\(times)×)")
        }
        for entry in summary.refusedEntries {
            lines.append("  refused unsafe zip entry: \(entry)")
        }
        lines += dataDays
        lines.append("Store: \(summary.databasePath)")
        return lines.joined(separator: "\n")
    }

    static func bytes(_ value: Int64) -> String {
        if value >= 1_000_000_000 { return String(format: "%.2f GB", Double(value) / 1e9) }
        if value >= 1_000_000 { return String(format: "%.1f MB", Double(value) / 1e6) }
        if value >= 1_000 { return String(format: "%.1f kB", Double(value) / 1e3) }
        return "\(value) B"
    }

    static func count(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }
}
