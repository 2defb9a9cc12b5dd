import ArgumentParser
import Foundation
import HealthCore
import HealthMetrics
import HealthSQLite
import HealthServer
import HealthWire

struct Samples: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List stored samples of one type with their UUIDs.",
        discussion: """
            Samples overlapping --from…--to (all time without them), by start. A record read \
            from an Apple export has a UUID derived from its content: the same record gives the \
            same UUID in every store (docs/store.md). Instants are printed in RFC 3339, UTC.
            """)

    @OptionGroup var storage: StoreOptions

    @Option(help: ArgumentHelp(TypeArgument.help))
    var type: String

    @OptionGroup var range: InstantRangeOptions

    @Option(help: "At most this many samples (the earliest).")
    var limit: Int?

    @Option(help: "json (one array) or jsonl (one sample a line).")
    var format = SamplesFormat.json

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        var samples = try await storage.withQueries { store in
            try await store.samples(
                of: try await TypeArgument.resolve(type, in: store), overlapping: try await range.interval(in: store))
        }
        if let limit { samples = Array(samples.prefix(limit)) }
        let wire = samples.map(SampleWire.init)
        switch format {
        case .json:
            print(try PrettyJSON.text(wire, encoder: SampleWire.encoder(pretty: true)))
        case .jsonl:
            let encoder = SampleWire.encoder()
            for sample in wire { print(String(decoding: try encoder.encode(sample), as: UTF8.self)) }
        }
    }
}

/// `--format` of `samples`.
enum SamplesFormat: String, ExpressibleByArgument, CaseIterable {
    case json, jsonl
}
