import ArgumentParser
import Foundation
import HealthCore
import HealthStore

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show what the store holds: rows per table and samples per type.")

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let store = try database.open()
        let tables = try store.counts()
        let types = try store.sampleCountsByType()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let body = ["tables": tables, "samples_by_type": types]
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
    }
}
