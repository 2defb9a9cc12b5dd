import ArgumentParser
import Foundation
import HealthServer
import Hummingbird

/// `--db` of the server: its own file, beside the health store by default.
struct ServerDatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The server's SQLite file (default: $XDG_DATA_HOME/healthpipe/server.sqlite).")
    var db: String?

    var path: String {
        db ?? (DatabaseOptions.defaultPath() as NSString).deletingLastPathComponent + "/server.sqlite"
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP API: ingest daily metrics, serve them and readiness (docs/api.md).",
        discussion: "Stops gracefully on SIGINT or SIGTERM: requests in flight finish first.")

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @OptionGroup var database: ServerDatabaseOptions

    @Option(help: "Requests a minute per token.")
    var rateLimit = 1200

    @Option(help: "Largest JSON body accepted, in MiB.")
    var maxBodyMib = 4

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1–65535") }
        guard rateLimit > 0, maxBodyMib > 0 else { throw ValidationError("--rate-limit and --max-body-mib must be positive") }
    }

    func run() async throws {
        let repositories = try ServerRepositories.sqlite(path: database.path)
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.requestsPerMinute = rateLimit
        configuration.maxBodyBytes = maxBodyMib << 20
        printError("healthpipe serve: http://\(host):\(port) (store \(database.path))")
        let app = buildApplication(configuration: configuration, repositories: repositories)
        try await app.runService()
    }
}

struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Users of the HTTP API and their tokens.", subcommands: [UsersAdd.self, UsersList.self, UsersRevoke.self])
}

struct UsersAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a user and print their token (shown once, stored hashed).")

    @Argument(help: "A unique name.")
    var name: String

    @Option(help: "read, write or read,write.")
    var scope = "read,write"

    @OptionGroup var database: ServerDatabaseOptions

    func validate() throws {
        guard Scope.parse(scope) != nil else { throw ValidationError("--scope must be read, write or read,write") }
        guard !name.isEmpty, name.count <= 100 else { throw ValidationError("the name must be 1–100 characters") }
    }

    func run() async throws {
        let store = try SQLiteServerStore(path: database.path)
        do {
            let (user, token) = try await store.addUser(name: name, scopes: Scope.parse(scope)!)
            printError("Added \(user.name) (\(user.id)), scopes \(user.scopes.sorted().map(\.rawValue).joined(separator: ",")).")
            printError("The token below is shown once; keep it somewhere safe.")
            print(token.text)
        } catch let error as UserExistsError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}

struct UsersList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List users (tokens are never shown).")

    @OptionGroup var database: ServerDatabaseOptions

    func run() async throws {
        let store = try SQLiteServerStore(path: database.path)
        let rows = try await store.dailyRowCounts()
        let formatter = ISO8601DateFormatter()
        var table = [["name", "id", "scopes", "created", "revoked", "daily rows"]]
        for user in try await store.users() {
            table.append([
                user.name, user.id, user.scopes.sorted().map(\.rawValue).joined(separator: ","),
                formatter.string(from: user.createdAt), user.revokedAt.map(formatter.string(from:)) ?? "—",
                String(rows[user.id] ?? 0),
            ])
        }
        print(TextTable.render(table, leftAligned: [0, 1, 2, 3, 4]))
    }
}

struct UsersRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a user's token at once.")

    @Argument(help: "The user's name.")
    var name: String

    @OptionGroup var database: ServerDatabaseOptions

    func run() async throws {
        let store = try SQLiteServerStore(path: database.path)
        guard try await store.revoke(name: name) else {
            printError("error: no live user named '\(name)'")
            throw ExitCode(2)
        }
        printError("Revoked \(name)'s token.")
    }
}
