import ArgumentParser
import Foundation
import HealthCore
import HealthPostgres
import HealthServer
import Hummingbird

struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Users of the HTTP API and their tokens.",
        discussion: """
            Each user has one owner token (printed by `users add`): it signs in to the dashboard, \
            decides on the consent page what scoped tokens may read, enrols devices and may delete the \
            account. `users token add` makes scoped tokens of a user's data for someone else (a coach).
            """,
        subcommands: [UsersAdd.self, UsersList.self, UsersRevoke.self, UsersDelete.self, UsersToken.self])
}
