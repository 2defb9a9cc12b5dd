import ArgumentParser
import Foundation
import HealthDaily

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export the store's data to other formats.", subcommands: [ExportCSV.self, ExportGPX.self])
}
