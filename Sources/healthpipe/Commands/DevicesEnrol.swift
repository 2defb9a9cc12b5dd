import ArgumentParser
import Foundation
import HealthSync

struct DevicesEnrol: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrol",
        abstract: "Enrol a device with a server and keep its key (mode 0600) in the state folder.",
        discussion: """
            The server makes the device's 256-bit key and sends it once; it is kept in \
            credentials.json (mode 0600) beside the token. docs/sync.md §Keys has the threat model. \
            The token comes from HEALTHPIPE_TOKEN or, with --token-stdin, one line of standard \
            input: a command-line argument is visible to every user of the machine. The server \
            must be https://, or http:// to this machine only (localhost, 127.0.0.0/8, ::1).
            """)

    @Option(help: "The server, e.g. https://health.example.org:8443 (http:// only to localhost, 127.0.0.1 or ::1).")
    var server: String

    /// Kept for scripts that pass it; warned about, since `ps` shows it to every user.
    @Option(help: "The owner's token. Visible to other users of this machine: prefer HEALTHPIPE_TOKEN or --token-stdin.")
    var token: String?

    @Flag(help: "Read the owner's token from one line of standard input.")
    var tokenStdin = false

    @Option(help: "A name for the device (default: this machine's host name).")
    var name: String?

    @OptionGroup var stateOptions: SyncStateOptions

    func validate() throws {
        do {
            try SyncServerURL.validate(server)
        } catch {
            throw ValidationError("--server: \(error)")
        }
        if token != nil && tokenStdin { throw ValidationError("give --token or --token-stdin, not both") }
        if token == nil, !tokenStdin,
            (ProcessInfo.processInfo.environment[EnrolmentToken.environmentVariable] ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            throw ValidationError(
                "give the owner's token in HEALTHPIPE_TOKEN, or on standard input with --token-stdin "
                    + "(a --token argument is visible to every user of this machine)")
        }
    }

    func run() async throws {
        if token != nil {
            printError(
                "warning: --token is visible to other users of this machine (ps, /proc); "
                    + "set HEALTHPIPE_TOKEN or use --token-stdin instead")
        }
        let secret: String
        do {
            secret = try EnrolmentToken.read(commandLine: token, fromStandardInput: tokenStdin)
        } catch let error as EnrolmentToken.Missing {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let url = try SyncServerURL.validate(server)
        let state = try SyncState(folder: stateOptions.folder)
        let enrolment = try await DeviceEnrolment.enrol(
            server: url, token: secret, name: name ?? ProcessInfo.processInfo.hostName, state: state,
            transport: HTTPSyncTransport(baseURL: url, token: secret, timeout: 30))
        print("enrolled device \(enrolment.deviceID) (\(enrolment.deviceName)) on \(enrolment.server); state in \(state.folder)")
    }
}
