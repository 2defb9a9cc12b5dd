import Foundation
import HealthCore

/// Writes samples as CSV rows `Date,Metric,Value,Unit` (and `Source`, on request), metric
/// after metric in the order asked, each in time order, streaming from a store (``HealthQuerying/samplePages(of:startingIn:)``)
/// store through a ``CSVOutput``: a page of rows at a time, the output's full buffers handed
/// to `deliver` between pages, so a slow reader (an HTTP client) slows the scan and no
/// thread waits.
///
/// ```swift
/// let exporter = CSVExporter(store: database.store, options: .init())
/// let report = try await exporter.export([weight, steps], to: output)
/// ```
public struct CSVExporter: Sendable {
    /// How to write.
    public struct Options: Sendable {
        /// The zone rows are stamped in before the first of ``zoneChanges`` (all of them
        /// when there are none).
        public var zone = TimeZone.current
        /// Where the zone of the data changes, oldest first: from each `start` on, rows are
        /// stamped in its `zone` (the local days' zones, `LocalDay.zoneChanges` in
        /// HealthDaily), so a row reads in the zone of the day it is on.
        public var zoneChanges: [(start: Date, zone: TimeZone)] = []
        public var dateStyle = CSVDateStyle.iso
        public var units = UnitPreferences()
        /// Samples that start in this interval; `nil` for all.
        public var interval: DateInterval?
        /// Adds a fifth column, `Source`.
        public var includesSource = false

        public init() {}
    }

    /// What was written.
    public struct Report: Sendable {
        /// Rows per metric name, in the order written.
        public var rows: [(metric: String, count: Int)] = []
        /// Metrics with nothing to export, and why.
        public var unavailable: [(metric: String, reason: String)] = []
        /// Rows whose unit could not be converted, written in their stored unit.
        public var keptInStoredUnit = 0
        public var totalRows: Int { rows.reduce(0) { $0 + $1.count } }
    }

    let store: any HealthQuerying
    let options: Options

    public init(store: any HealthQuerying, options: Options) {
        self.store = store
        self.options = options
    }

    /// The header and every row of `metrics`. `progress` hears the running row count every
    /// 65,536 rows. An output made without a sink hands its full buffers to `deliver` after
    /// each page of rows and at the end (``CSVOutput/takeChunks()``).
    public func export(
        _ metrics: [ExportMetric], to output: CSVOutput, progress: ((Int) -> Void)? = nil,
        deliver: ([UInt8]) async throws -> Void = { _ in }
    ) async throws -> Report {
        try output.row(["Date", "Metric", "Value", "Unit"] + (options.includesSource ? ["Source"] : []))
        var report = Report()
        let stored = Set(try await store.storedSampleTypes())
        var timestamp = CSVTimestamp(zone: options.zone, changes: options.zoneChanges, style: options.dateStyle)
        var written = 0
        func tick() {
            written += 1
            if written & 0xFFFF == 0 { progress?(written) }
        }
        for metric in metrics {
            let before = output.rows
            switch metric.origin {
            case .quantity(let type), .category(let type):
                guard stored.contains(type) else {
                    report.unavailable.append((metric.name, "no \(type.identifier) samples in the store"))
                    continue
                }
                if case .category = metric.origin {
                    try await writeCategory(metric, type, output, &timestamp, tick, deliver)
                } else {
                    report.keptInStoredUnit += try await writeQuantity(metric, type, output, &timestamp, tick, deliver)
                }
            case .labResult(let codes):
                let records = try await store.clinicalRecords()
                let results = records.compactMap { LabResult($0, codes: codes) }
                guard !results.isEmpty else {
                    report.unavailable.append(
                        (
                            metric.name,
                            "no lab result with LOINC \(codes.sorted().joined(separator: ", ")) among the store's \(records.count) clinical records (import an export that includes Health Records)"
                        ))
                    continue
                }
                for result in results.sorted(by: { $0.date < $1.date })
                where options.interval.map({ $0.start <= result.date && result.date < $0.end }) ?? true {
                    try writeRow(
                        output, &timestamp, start: result.date.timeIntervalSince1970, metric: metric.title,
                        value: result.value, decimals: metric.decimals, unit: "%", source: result.sourceName)
                    tick()
                }
            }
            report.rows.append((metric.name, output.rows - before))
            for chunk in output.takeChunks() { try await deliver(chunk) }
        }
        try output.flush()
        for chunk in output.takeChunks() { try await deliver(chunk) }
        return report
    }

    /// Returns the number of rows kept in their stored unit.
    private func writeQuantity(
        _ metric: ExportMetric, _ type: SampleType, _ output: CSVOutput, _ timestamp: inout CSVTimestamp, _ tick: () -> Void,
        _ deliver: ([UInt8]) async throws -> Void
    ) async throws -> Int {
        let target = try metric.unit(options.units).map(HealthUnit.init(parsing:))
        var units: [String: HealthUnit?] = [:]
        var kept = 0
        for try await rows in store.samplePages(of: type, startingIn: options.interval) {
            // A page at a time in synchronous code: the per-row work never runs in an async
            // frame (whose captured variables are checked on every access).
            try writeQuantityRows(rows, metric, target, output, &timestamp, &units, &kept, tick)
            for chunk in output.takeChunks() { try await deliver(chunk) }
        }
        return kept
    }

    private func writeQuantityRows(
        _ rows: [SampleRow], _ metric: ExportMetric, _ target: HealthUnit?, _ output: CSVOutput,
        _ timestamp: inout CSVTimestamp, _ units: inout [String: HealthUnit?], _ kept: inout Int, _ tick: () -> Void
    ) throws {
        let targetLabel = target.map { metric.label(for: $0.symbol) }
        let decimals = metric.decimals(for: target?.symbol)
        for row in rows {
            guard let number = row.value else { continue }
            var value = number
            var label = targetLabel
            if let target, let symbol = row.unit {
                // A unit that does not parse is remembered as `nil` (`.some(nil)`: assigning a
                // bare `nil` through the subscript would remove the key, not store it).
                let unit: HealthUnit?
                if let known = units[symbol] {
                    unit = known
                } else {
                    unit = try? HealthUnit(parsing: symbol)
                    units[symbol] = .some(unit)
                }
                if let unit, let converted = try? unit.convert(number, to: target) {
                    value = converted * metric.scale
                } else {
                    label = symbol
                    kept += 1
                }
            } else {
                value = number * (target == nil ? 1 : metric.scale)
                label = row.unit ?? ""
            }
            try writeRow(
                output, &timestamp, start: row.start, metric: metric.title, value: value,
                decimals: label == targetLabel ? decimals : metric.decimals, unit: label ?? "", source: row.sourceName)
            tick()
        }
    }

    /// One row per sample: `Title (Value)` and the duration in minutes.
    private func writeCategory(
        _ metric: ExportMetric, _ type: SampleType, _ output: CSVOutput, _ timestamp: inout CSVTimestamp, _ tick: () -> Void,
        _ deliver: ([UInt8]) async throws -> Void
    ) async throws {
        var titles: [String: String] = [:]
        for try await rows in store.samplePages(of: type, startingIn: options.interval) {
            try writeCategoryRows(rows, metric, type, output, &timestamp, &titles, tick)
            for chunk in output.takeChunks() { try await deliver(chunk) }
        }
    }

    private func writeCategoryRows(
        _ rows: [SampleRow], _ metric: ExportMetric, _ type: SampleType, _ output: CSVOutput,
        _ timestamp: inout CSVTimestamp, _ titles: inout [String: String], _ tick: () -> Void
    ) throws {
        let typeName = type.identifier.replacingOccurrences(of: "HKCategoryTypeIdentifier", with: "")
        for row in rows {
            let text = row.valueText ?? row.value.map { CSVNumber.text($0, decimals: nil) } ?? ""
            let title: String
            if let known = titles[text] {
                title = known
            } else {
                var short = text.hasPrefix("HKCategoryValue") ? String(text.dropFirst("HKCategoryValue".count)) : text
                if short.hasPrefix(typeName), short.count > typeName.count { short = String(short.dropFirst(typeName.count)) }
                title = short.isEmpty ? metric.title : "\(metric.title) (\(short))"
                titles[text] = title
            }
            try writeRow(
                output, &timestamp, start: row.start, metric: title, value: (row.end - row.start) / 60, decimals: nil,
                unit: "min", source: row.sourceName)
            tick()
        }
    }

    private func writeRow(
        _ output: CSVOutput, _ timestamp: inout CSVTimestamp, start: Double, metric: String, value: Double, decimals: Int?,
        unit: String, source: String
    ) throws {
        output.rawField { timestamp.append(start, to: &$0) }
        output.field(metric)
        output.rawField { CSVNumber.append(value, decimals: decimals, to: &$0) }
        output.field(unit)
        if options.includesSource { output.field(source) }
        try output.endRow()
    }
}
