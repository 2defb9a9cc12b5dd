import ArgumentParser
import Foundation
import HealthSynth

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmarks and accuracy checks.",
        subcommands: benchmarks)

    #if canImport(HealthKit)
        static let benchmarks: [any ParsableCommand.Type] = [
            BenchImport.self, BenchExport.self, BenchSync.self, BenchAccuracy.self, BenchLoad.self, BenchCache.self,
        ]
    #else
        static let benchmarks: [any ParsableCommand.Type] = [
            BenchImport.self, BenchExport.self, BenchSync.self, BenchAccuracy.self, BenchHealthKit.self, BenchLoad.self,
            BenchCache.self,
        ]
    #endif
}
