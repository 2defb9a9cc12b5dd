import ArgumentParser
import Foundation
import HealthCore
import HealthPostgres
import HealthServer
import HealthWire
import Hummingbird

struct UsersDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a user with all their data: samples, daily metrics, uploads' jobs, token.",
        discussion: "What DELETE /v1/me does for the user. Asks first on a terminal unless --yes.")

    @Argument(help: "The user's name.")
    var name: String

    @OptionGroup var database: ServerDatabaseOptions

    @Option(help: "Folder of each user's samples and of uploads (default: the folder of --server-db).")
    var dataDir: String?

    @Flag(help: "Do not ask.")
    var yes = false

    func run() async throws {
        let folder = dataDir ?? (database.path as NSString).deletingLastPathComponent
        // A server on the same SQLite folder would not see this deletion's lock (issue 32, H1).
        let locks = try database.lockSQLite(dataFolder: folder) { error in
            "healthpipe serve is running on \(error.path); stop it or use DELETE /v1/me"
        }
        defer { withExtendedLifetime(locks) {} }
        let host = try await database.openHost(dataFolder: folder)
        let repositories = host.repositories
        let report: UserDeletionReport?
        do {
            if let user = try await repositories.users.users().first(where: { $0.name == name }) {
                guard try Confirmation.ask("Delete \(name) and all their data for good?", skip: yes) else { throw ExitCode(1) }
                report = try await repositories.deleteUser(user)
            } else {
                report = nil
            }
            await host.close()
        } catch {
            await host.close()
            throw error
        }
        guard let report else {
            printError("error: no user named '\(name)'")
            throw ExitCode(2)
        }
        let rows = report.rows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print(
            "Deleted \(report.user) (\(report.id)): \(report.samples) samples (\(report.healthStoreBytes) bytes of store); rows: \(rows)."
        )
    }
}
