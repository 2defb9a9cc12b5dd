import ArgumentParser
import Foundation
import HealthCore
import HealthPostgres
import HealthServer
import Hummingbird

struct UsersRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a user at once: their owner token and every scoped token of theirs stop working.",
        discussion: "To revoke one scoped token only: healthpipe users token revoke NAME TOKEN-NAME.")

    @Argument(help: "The user's name.")
    var name: String

    @OptionGroup var database: ServerDatabaseOptions

    func run() async throws {
        guard try await database.withStore({ try await $0.revoke(name: name) }) else {
            printError("error: no live user named '\(name)'")
            throw ExitCode(2)
        }
        printError("Revoked \(name) and every token of theirs.")
    }
}
