import ArgumentParser
import Foundation
import HealthCore
import HealthPostgres
import HealthServer
import HealthServerRecords
import Hummingbird

struct UsersAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a user and print their owner token (shown once, stored hashed).",
        discussion: """
            The owner token reads every kind of data the person has not denied on the consent page. \
            For a coach's or a dashboard's token limited to some kinds, add a scoped token: \
            healthpipe users token add NAME --name coach --kinds steps,sleep.
            """)

    @Argument(help: "A unique name.")
    var name: String

    @Option(help: "read, write or read,write.")
    var scope = "read,write"

    /// Made a separate user (with its own consent) before scoped tokens existed; refused now.
    @Option(help: .hidden)
    var types: String?

    @OptionGroup var database: ServerDatabaseOptions

    func validate() throws {
        guard Scope.parse(scope) != nil else { throw ValidationError("--scope must be read, write or read,write") }
        if types != nil {
            throw ValidationError(
                "a user's own token reads every kind; for a token limited to some kinds, add a scoped token to the "
                    + "person's user: healthpipe users token add NAME --name coach --kinds steps,sleep")
        }
        guard !name.isEmpty, name.count <= 100 else { throw ValidationError("the name must be 1–100 characters") }
    }

    func run() async throws {
        do {
            let (user, token) = try await database.withStore {
                try await $0.addUser(name: name, scopes: Scope.parse(scope)!)
            }
            printError(
                "Added \(user.name) (\(user.id)): owner token with scopes \(Scope.list(user.scopes)), every kind of data.")
            printError("The token below is shown once; keep it somewhere safe.")
            print(token.text)
        } catch let error as UserExistsError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
