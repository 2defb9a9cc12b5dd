import ArgumentParser
import Foundation
import HealthCore
import HealthPostgres
import HealthServer
import HealthServerRecords
import Hummingbird

struct UsersList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List users (tokens are never shown; `users token list NAME` lists a user's).")

    @OptionGroup var database: ServerDatabaseOptions

    func run() async throws {
        let (rows, users) = try await database.withStore { store in (try await store.dailyRowCounts(), try await store.users()) }
        let formatter = ISO8601DateFormatter()
        var table = [["name", "id", "scopes", "data", "created", "revoked", "daily rows"]]
        for user in users {
            table.append([
                user.name, user.id, Scope.list(user.scopes), APIToken.describe(user.dataTypes),
                formatter.string(from: user.createdAt), user.revokedAt.map(formatter.string(from:)) ?? "—",
                String(rows[user.id] ?? 0),
            ])
        }
        print(TextTable.render(table, leftAligned: [0, 1, 2, 3, 4, 5]))
    }
}
