import ArgumentParser
import Foundation
import HealthCore
import HealthServer
import HealthServerRecords

struct UsersTokenList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List a user's tokens, revoked ones included (never their secrets).")

    @Argument(help: "The user.")
    var user: String

    @OptionGroup var database: ServerDatabaseOptions

    func run() async throws {
        let tokens: [APIToken]
        do {
            tokens = try await database.withStore { try await $0.tokens(owner: user) }
        } catch let error as TokenError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        print(TextTable.render(UsersTokenList.table(tokens), leftAligned: [0, 1, 2, 3, 4, 5, 6, 7]))
    }

    /// The rows `users token list` prints: a header, then one row per token.
    static func table(_ tokens: [APIToken]) -> [[String]] {
        let formatter = ISO8601DateFormatter()
        return [["name", "role", "id", "scopes", "reads", "writes", "created", "revoked"]]
            + tokens.map { token in
                [
                    token.name, token.role.rawValue, token.id, Scope.list(token.scopes),
                    APIToken.describe(token.readTypes),
                    token.scopes.contains(.write) ? APIToken.describe(token.writeTypes) : "—",
                    formatter.string(from: token.createdAt), token.revokedAt.map(formatter.string(from:)) ?? "—",
                ]
            }
    }
}
