import ArgumentParser
import Foundation
import HealthCore
import HealthServer

/// `healthpipe users token add|list|revoke`: a person's scoped tokens.
struct UsersToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Scoped tokens of a user's data, for a coach or a dashboard.",
        discussion: """
            A scoped token reads the user's data of its --kinds that the user has also allowed on the \
            consent page (/consent), and nothing else. It is read-only unless given --write kinds: then \
            it may add and delete samples of those kinds only. It never signs in to the dashboard, \
            never changes consent, enrols no device and cannot delete the account: only the user's \
            own token (from `users add`) does.
            """,
        subcommands: [UsersTokenAdd.self, UsersTokenList.self, UsersTokenRevoke.self])
}

struct UsersTokenAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Make a scoped token of a user's data and print it (shown once, stored hashed).")

    @Argument(help: "The user whose data the token reads (its owner).")
    var user: String

    @Option(help: "The token's name, unique among the user's live tokens: 1–64 letters, digits, '-', '_' or '.'.")
    var name: String

    @Option(
        help: ArgumentHelp(
            "The kinds of health data it may read, e.g. steps,sleep (or all).",
            discussion: """
                One or more of \(HealthDataCategory.names). It reads a kind only once the user has also \
                allowed it on the consent page, and stops when they withdraw it.
                """))
    var kinds: String

    /// `--types` names sample types everywhere else (`sync --types`): refused here, with the flag meant.
    @Option(name: .customLong("types"), help: .hidden)
    var sampleTypes: String?

    @Option(
        help: ArgumentHelp(
            "The kinds whose samples it may also add and delete (default: none, read-only).",
            discussion: "Each must be among --kinds. Consent does not limit writing."))
    var write: String?

    @OptionGroup var database: ServerDatabaseOptions

    func validate() throws {
        guard APIToken.isValidName(name) else {
            throw ValidationError("--name must be 1–64 letters, digits, '-', '_' or '.', and not 'owner'")
        }
        if sampleTypes != nil {
            throw ValidationError("a token reads kinds of health data, not sample types: --kinds steps,sleep")
        }
        guard let readTypes = HealthDataCategory.parse(kinds) else {
            throw ValidationError("--kinds must be a comma list of \(HealthDataCategory.names), or all")
        }
        if let write {
            guard let writeTypes = HealthDataCategory.parse(write) else {
                throw ValidationError("--write must be a comma list of \(HealthDataCategory.names), or all")
            }
            guard writeTypes.isSubset(of: readTypes) else {
                throw ValidationError("--write may name only kinds that --kinds names too")
            }
        }
    }

    func run() async throws {
        let readTypes = HealthDataCategory.parse(kinds)!
        let writeTypes = write.flatMap(HealthDataCategory.parse) ?? []
        do {
            let (scoped, token) = try await database.withStore {
                try await $0.addToken(owner: user, name: name, readTypes: readTypes, writeTypes: writeTypes)
            }
            printError(
                "Added \(user)'s scoped token '\(scoped.name)': reads \(APIToken.describe(scoped.readTypes)) "
                    + "once \(user) allows them on the consent page, writes \(APIToken.describe(scoped.writeTypes)).")
            printError("The token below is shown once; keep it somewhere safe.")
            print(token.text)
        } catch let error as TokenError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}

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
