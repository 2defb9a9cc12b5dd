import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite
import HealthSync

/// `--state`, shared by the device and sync commands.
struct SyncStateOptions: ParsableArguments {
    @Option(help: "The sync state folder (default: $XDG_STATE_HOME/healthpipe/sync).")
    var state: String?

    var folder: String { state ?? SyncState.defaultFolder() }

    /// The state, or exit 2 with how to enrol when there is none.
    func openEnrolled() throws -> (SyncState, Enrolment) {
        guard FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("sync.sqlite")) else {
            printError(
                "error: no sync state in \(folder); run `HEALTHPIPE_TOKEN=… healthpipe devices enrol --server URL` first.")
            throw ExitCode(2)
        }
        let state = try SyncState(folder: folder)
        return (state, try state.requireEnrolment())
    }

    /// The transport to the enrolled server with the enrolment's token.
    func transport(_ state: SyncState, _ enrolment: Enrolment, timeout: Double = 30) throws -> HTTPSyncTransport {
        HTTPSyncTransport(
            baseURL: try Self.serverURL(enrolment.server), token: try state.credentials().token, timeout: timeout)
    }

    /// `text` as the server the token goes to: https://, or http:// to loopback only
    /// (``SyncServerURL``); exit 2 with why otherwise (a state enrolled before the rule may
    /// hold a plain http:// server elsewhere).
    static func serverURL(_ text: String) throws -> URL {
        do {
            return try SyncServerURL.validate(text)
        } catch let error as SyncServerURL.Refused {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sync the store to a server: encrypted batches that lose nothing and duplicate nothing.",
        discussion: """
            Reads each type's changes (additions and deletions) since the last sync — and, the \
            first time, its history, newest first — into sealed batches in an outbox, then \
            uploads them in order with retries. Enrol first (`healthpipe devices enrol`). \
            docs/sync.md has the protocol and what each error means.
            """,
        subcommands: [SyncRun.self, SyncStatus.self], defaultSubcommand: SyncRun.self)
}
