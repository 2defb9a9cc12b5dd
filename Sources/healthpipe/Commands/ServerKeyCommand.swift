import ArgumentParser
import Foundation
import HealthServer
import HealthServerHost

/// `--server-key-file`: the key that seals device keys at rest, when `HEALTHPIPE_SERVER_KEY`
/// is not set (docs/sync.md §Device keys at rest).
struct ServerKeyOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server key sealing device keys at rest (default: server.key in the data folder, made 0600 when missing).",
            discussion: """
                HEALTHPIPE_SERVER_KEY (the base64 of 32 bytes) is used instead when set. Every server on one \
                PostgreSQL database needs the same key.
                """))
    var serverKeyFile: String?

    /// The key file: the one named, or `server.key` in `dataFolder`.
    func file(dataFolder: String) -> String {
        serverKeyFile ?? (dataFolder as NSString).appendingPathComponent(ServerKey.defaultFileName)
    }

    /// The key (`HEALTHPIPE_SERVER_KEY`, else the file, made when missing), saying on
    /// standard error where it came from when it was made now.
    func load(dataFolder: String) throws -> ServerKey {
        do {
            let (key, origin) = try ServerKey.load(file: file(dataFolder: dataFolder))
            if case .created(let path) = origin {
                printError(
                    "Created the server key \(path) (mode 0600, fingerprint \(key.fingerprintHex)): device keys are sealed "
                        + "under it. Back it up apart from the database; every server on one database needs this key.")
            }
            return key
        } catch let error as ServerKeyError {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// The host's device keys sealed under `key` from now on, keys still in clear sealed now;
    /// on a key that does not open the stored keys, closes the host and exits 2 with the reason.
    static func sealDeviceKeys(of host: inout ServerHost, under key: ServerKey) async throws {
        do {
            let sealed = try await host.sealDeviceKeys(under: key)
            if sealed > 0 { printError("Sealed \(sealed) device key(s) stored in clear under the server key.") }
        } catch let error as ServerKeyError {
            await host.close()
            printError("error: \(error)")
            throw ExitCode(2)
        } catch {
            await host.close()
            throw error
        }
    }
}

struct ServerKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server-key", abstract: "The server key that seals device keys at rest (docs/sync.md).",
        subcommands: [ServerKeyRotate.self])
}
