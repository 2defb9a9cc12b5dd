import ArgumentParser
import Foundation
import HealthServer
import HealthServerRecords

/// `healthpipe server-key rotate --new-key-file NEW`: every device key re-sealed under a
/// new server key, in the database every server uses.
struct ServerKeyRotate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate", abstract: "Re-seal every device key under a new server key.",
        discussion: """
            Stop every server on the database first. The current key is HEALTHPIPE_SERVER_KEY, or \
            --server-key-file (default: server.key in the data folder); --new-key-file is made (0600, a \
            fresh key) when missing. Run again with the same keys if it was cut short. Then give every \
            server the new key and start them: a server on the old key refuses to start.
            """)

    @OptionGroup var database: ServerDatabaseOptions

    @Option(help: "The servers' data folder (default: the folder of --server-db).")
    var dataDir: String?

    @OptionGroup var serverKey: ServerKeyOptions

    @Option(help: "The new key's file: read when it exists, else made with mode 0600 and a fresh key.")
    var newKeyFile: String

    func run() async throws {
        let folder = dataDir ?? (database.path as NSString).deletingLastPathComponent
        let environment = ProcessInfo.processInfo.environment
        let fromEnvironment = !(environment[ServerKey.environmentVariable] ?? "").isEmpty
        let currentFile = serverKey.file(dataFolder: folder)
        let current: ServerKey
        let newKey: ServerKey
        do {
            // The current key is never made here: a missing one is a mistake to name.
            current = try fromEnvironment ? ServerKey.load(file: currentFile).key : ServerKey.read(file: currentFile)
            if let made = try ServerKey.create(file: newKeyFile) {
                newKey = made
                printError("Created the new server key \(newKeyFile) (mode 0600).")
            } else {
                newKey = try ServerKey.read(file: newKeyFile)
            }
        } catch let error as ServerKeyError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        guard newKey.fingerprint != current.fingerprint else {
            printError("error: the new key is the current key (fingerprint \(current.fingerprintHex))")
            throw ExitCode(2)
        }
        let resealed: Int
        do {
            resealed = try await database.withStore { store in
                try await SealedDeviceRepository(inner: store, key: current).rotate(to: newKey).resealed
            }
        } catch let error as ServerKeyError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        print(
            "Re-sealed \(resealed) device key(s) in \(database.described) under the new server key "
                + "\(newKey.fingerprintHex) (was \(current.fingerprintHex)).")
        let install =
            fromEnvironment
            ? "set \(ServerKey.environmentVariable) to the content of \(newKeyFile)"
            : "replace \(currentFile) with \(newKeyFile) (mv \(newKeyFile) \(currentFile)), or point --server-key-file at it"
        printError(
            "Now, on every server, \(install), then start the servers. Keep the old key only as long as you keep "
                + "database backups made before this rotation; they need it.")
    }
}
