import ArgumentParser
import Foundation
import HealthCore
import HealthMetrics
import HealthSQLite
import HealthServer
import HealthWire

/// `--from`/`--to` as a local date (`YYYY-MM-DD`: the whole day, in the data's zone for
/// that day unless `--tz`) or an RFC 3339 instant.
struct InstantRangeOptions: ParsableArguments {
    @Option(help: "From this local day (YYYY-MM-DD, from its start) or instant (RFC 3339).")
    var from: String?

    @Option(help: "Through this local day (YYYY-MM-DD, inclusive) or until this instant (RFC 3339, exclusive).")
    var to: String?

    @OptionGroup var zones: ZoneOptions

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, LocalDate(value) == nil, RFC3339.parse(value) == nil {
                throw ValidationError("\(name) must be YYYY-MM-DD or an RFC 3339 instant, not '\(value)'")
            }
        }
        if let from = from.flatMap(LocalDate.init), let to = to.flatMap(LocalDate.init), from > to {
            throw ValidationError("--from must not be after --to")
        }
    }

    /// The interval asked for (all time without --from and --to), its dates in the zones of
    /// `store`'s days.
    func interval(in store: any HealthQuerying) async throws -> DateInterval {
        let data = zones.data(store)
        var (start, end) = (Date.distantPast, Date.distantFuture)
        if let from {
            if let day = LocalDate(from) {
                start = try await data.interval(from: day, through: day).start
            } else {
                start = RFC3339.parse(from)!
            }
        }
        if let to {
            if let day = LocalDate(to) {
                end = try await data.interval(from: day, through: day).end
            } else {
                end = RFC3339.parse(to)!
            }
        }
        guard start <= end else { throw ValidationError("--from must not be after --to") }
        return DateInterval(start: start, end: end)
    }
}

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

struct Changes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The change feed of one type: additions and deletions after an anchor.",
        discussion: """
            Prints exactly what GET /v1/changes answers: {"changes": [...], "next_anchor", \
            "has_more"}. Pass next_anchor as --since to continue.
            """)

    @OptionGroup var storage: StoreOptions

    @Option(help: ArgumentHelp(TypeArgument.help))
    var type: String

    @Option(help: "The anchor of the last change seen (default 0: from the beginning).")
    var since: Int64 = 0

    @Option(help: "At most this many changes, additions and deletions together.")
    var limit = 1000

    @Option(help: "json.")
    var format = ChangesFormat.json

    func validate() throws {
        guard since >= 0 else { throw ValidationError("--since must not be negative") }
        guard (1...1_000_000).contains(limit) else { throw ValidationError("--limit must be 1…1000000") }
    }

    func run() async throws {
        let page = try await storage.withQueries { store in
            try await store.changes(
                of: try await TypeArgument.resolve(type, in: store), since: QueryAnchor(since), limit: limit)
        }
        print(String(decoding: try SampleWire.encoder().encode(ChangeFeedPage(page)), as: UTF8.self))
    }
}

struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete samples by UUID, or by type and time range.",
        discussion: """
            Deletes each sample with everything attached to it (metadata, beats, routes, a \
            correlation's readings) and leaves a tombstone in the change feed. Asks first on a \
            terminal unless --yes.
            """)

    @OptionGroup var storage: StoreOptions

    @Option(name: .customLong("uuid"), help: "A sample's UUID (repeatable).")
    var uuids: [String] = []

    @Option(help: ArgumentHelp("Delete samples of this type overlapping --from…--to. " + TypeArgument.help))
    var type: String?

    @OptionGroup var range: InstantRangeOptions

    @Option(help: "Only samples of the source with this name (with --type).")
    var source: String?

    @Flag(help: "Do not ask.")
    var yes = false

    func validate() throws {
        if uuids.isEmpty == (type == nil) { throw ValidationError("give --uuid … or --type with --from and --to") }
        if type != nil, range.from == nil || range.to == nil { throw ValidationError("--type needs --from and --to") }
        if type == nil, source != nil || range.from != nil || range.to != nil {
            throw ValidationError("--from, --to and --source go with --type")
        }
        for text in uuids where UUID(uuidString: text) == nil { throw ValidationError("'\(text)' is not a UUID") }
    }

    func run() async throws {
        try await storage.withQueries { store in try await delete(from: store) }
    }

    private func delete(from store: any MutableHealthStore) async throws {
        let report: DeletionReport
        if let name = type {
            let type = try await TypeArgument.resolve(name, in: store)
            let interval = try await range.interval(in: store)
            let matching = try await store.samples(of: type, overlapping: interval)
                .filter { source == nil || $0.source.name == source }
            guard try confirm("Delete \(matching.count) \(type) samples\(source.map { " of \($0)" } ?? "")?") else { return }
            report = try await store.delete(type, overlapping: interval, source: source)
        } else {
            guard try confirm("Delete \(uuids.count) sample\(uuids.count == 1 ? "" : "s") by UUID?") else { return }
            report = try await store.delete(uuids: uuids.compactMap(UUID.init(uuidString:)))
        }
        print("Deleted \(report.deleted.count) sample\(report.deleted.count == 1 ? "" : "s").")
        for (type, count) in report.deletedByType.sorted(by: { $0.key < $1.key }) { print("  \(type): \(count)") }
        for uuid in report.deleted { print("  deleted \(uuid.uuidString)") }
        for uuid in report.unknown { print("  unknown \(uuid.uuidString) (not stored, or deleted already)") }
    }

    private func confirm(_ question: String) throws -> Bool {
        try Confirmation.ask(question, skip: yes)
    }
}

/// A yes/no question on a terminal; answered yes when input is not a terminal or `skip`.
enum Confirmation {
    static func ask(_ question: String, skip: Bool) throws -> Bool {
        guard !skip, isatty(STDIN_FILENO) == 1 else { return true }
        printError("\(question) [y/N] ", newline: false)
        guard let answer = readLine()?.lowercased(), answer == "y" || answer == "yes" else {
            printError("Nothing deleted.")
            return false
        }
        return true
    }
}

/// `--format` of `samples`.
enum SamplesFormat: String, ExpressibleByArgument, CaseIterable {
    case json, jsonl
}

/// `--format` of `changes`.
enum ChangesFormat: String, ExpressibleByArgument, CaseIterable {
    case json
}
