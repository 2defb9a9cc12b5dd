import ArgumentParser
import Foundation
import HealthCore
import HealthServer
import HealthServerRecords

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
