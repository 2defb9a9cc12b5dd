import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the store holds: rows per table, samples per type, each kind's first and last day.")

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let store = try database.open()
        let tables = try store.counts()
        let types = try store.sampleCountsByType()
        let spans = try store.sampleSpans()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let body = StatsBody(tables: tables, samplesByType: types, daysByKind: DataRanges.json(spans))
            print(try PrettyJSON.text(body, encoder: encoder))
            return
        }
        print("Store: \(database.path)")
        for (table, rows) in tables.sorted(by: { $0.key < $1.key }) {
            print("  \(table.padding(toLength: 20, withPad: " ", startingAt: 0)) \(rows)")
        }
        print("Samples by type:")
        for (type, rows) in types.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            print("  \(type.padding(toLength: 56, withPad: " ", startingAt: 0)) \(rows)")
        }
        let ranges = DataRanges.lines(spans)
        if !ranges.isEmpty {
            let header = DataRanges.header()
            print(String(header.prefix(1)).uppercased() + String(header.dropFirst()))
            for line in ranges { print("  " + line) }
        }
    }

    /// `--json`: the tables' rows, the samples per type, and each kind's first and last day.
    /// `stats --json`, in snake case as every JSON the tool prints.
    private struct StatsBody: Encodable {
        let tables: [String: Int]
        let samplesByType: [String: Int]
        let daysByKind: [String: [String: String]]

        enum CodingKeys: String, CodingKey {
            case tables
            case samplesByType = "samples_by_type"
            case daysByKind = "days_by_kind"
        }
    }
}
