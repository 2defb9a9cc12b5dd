import ArgumentParser
import Foundation
import HealthCore
import HealthServer
import HealthServerRecords

struct UsersTokenRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke one scoped token of a user at once (the others keep working).",
        discussion: "The owner token goes only with the user: healthpipe users revoke NAME.")

    @Argument(help: "The user.")
    var user: String

    @Argument(help: "The scoped token's name.")
    var name: String

    @OptionGroup var database: ServerDatabaseOptions

    func run() async throws {
        let revoked: Bool
        do {
            revoked = try await database.withStore { try await $0.revokeToken(owner: user, name: name) }
        } catch let error as TokenError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        guard revoked else {
            printError("error: \(user) has no live scoped token named '\(name)'")
            throw ExitCode(2)
        }
        printError("Revoked \(user)'s token '\(name)'.")
    }
}
