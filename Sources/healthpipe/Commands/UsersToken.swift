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
