import ArgumentParser
import Foundation
import HealthCore
import HealthMetrics
import HealthSQLite
import HealthServer
import HealthWire

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

/// `--format` of `changes`.
enum ChangesFormat: String, ExpressibleByArgument, CaseIterable {
    case json
}
