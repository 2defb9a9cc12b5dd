import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite
import HealthServer
import HealthServerRecords
import HealthWire

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
        try await storage.withStore { opened in
            guard let report = try await delete(from: opened.queries), !report.intervals.isEmpty else { return }
            // A server serving this store computes the deleted samples' days again before it
            // answers them.
            try await opened.markDirty(report.intervals, zone: nil)
        }
    }

    /// The deletion asked for, said on standard output; `nil` when the person said no.
    private func delete(from store: any MutableHealthStore) async throws -> DeletionReport? {
        let report: DeletionReport
        if let name = type {
            let type = try await TypeArgument.resolve(name, in: store)
            let interval = try await range.interval(in: store)
            let matching = try await store.samples(of: type, overlapping: interval)
                .filter { source == nil || $0.source.name == source }
            guard try confirm("Delete \(matching.count) \(type) samples\(source.map { " of \($0)" } ?? "")?") else { return nil }
            report = try await store.delete(type, overlapping: interval, source: source)
        } else {
            guard try confirm("Delete \(uuids.count) sample\(uuids.count == 1 ? "" : "s") by UUID?") else { return nil }
            report = try await store.delete(uuids: uuids.compactMap(UUID.init(uuidString:)))
        }
        print("Deleted \(report.deleted.count) sample\(report.deleted.count == 1 ? "" : "s").")
        for (type, count) in report.deletedByType.sorted(by: { $0.key < $1.key }) { print("  \(type): \(count)") }
        for uuid in report.deleted { print("  deleted \(uuid.uuidString.lowercased())") }
        for uuid in report.unknown { print("  unknown \(uuid.uuidString.lowercased()) (not stored, or deleted already)") }
        return report
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
