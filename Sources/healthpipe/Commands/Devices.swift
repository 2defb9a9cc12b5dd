import ArgumentParser
import Foundation
import HealthSync

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Enrol this machine as a sync device, rotate its key, list the account's devices.",
        subcommands: [DevicesEnrol.self, DevicesRotateKey.self, DevicesList.self])
}

struct DevicesEnrol: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrol",
        abstract: "Enrol a device with a server and keep its key (mode 0600) in the state folder.",
        discussion: """
            The server makes the device's 256-bit key and sends it once; it is kept in \
            credentials.json (mode 0600) beside the token. docs/sync.md §Keys has the threat model.
            """)

    @Option(help: "The server, e.g. https://health.example.org:8443.")
    var server: String

    @Option(help: "A bearer token with the write scope (`healthpipe users add`).")
    var token: String

    @Option(help: "A name for the device (default: this machine's host name).")
    var name: String?

    @OptionGroup var stateOptions: SyncStateOptions

    func validate() throws {
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? "") else {
            throw ValidationError("--server must be an http(s) URL such as https://host:8443, not '\(server)'")
        }
    }

    func run() async throws {
        let state = try SyncState(folder: stateOptions.folder)
        let url = URL(string: server)!
        let enrolment = try await DeviceEnrolment.enrol(
            server: url, token: token, name: name ?? ProcessInfo.processInfo.hostName, state: state,
            transport: HTTPSyncTransport(baseURL: url, token: token, timeout: 30))
        print("enrolled device \(enrolment.deviceID) (\(enrolment.deviceName)) on \(enrolment.server); state in \(state.folder)")
    }
}

struct DevicesRotateKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-key",
        abstract: "Get a new key for this device; the server accepts the old one for its grace period (7 days).")

    @OptionGroup var stateOptions: SyncStateOptions

    func run() async throws {
        let (state, enrolment) = try stateOptions.openEnrolled()
        let id = try await DeviceEnrolment.rotateKey(
            state: state,
            transport: try stateOptions.transport(state, enrolment))
        print("device \(enrolment.deviceID) now seals new batches with key \(id)")
    }
}

struct DevicesList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The devices of this device's account, as the server has them.")

    @OptionGroup var stateOptions: SyncStateOptions

    func run() async throws {
        let (state, enrolment) = try stateOptions.openEnrolled()
        let transport = try stateOptions.transport(state, enrolment)
        let response = try await transport.send(SyncRequest(method: "GET", path: "/v1/devices"))
        guard response.status == 200,
            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let devices = object["devices"] as? [[String: Any]]
        else {
            printError("error: the server answered HTTP \(response.status): \(response.problemDetail ?? "no detail")")
            throw ExitCode(1)
        }
        let rows = devices.map { device in
            [
                device["id"] as? String ?? "?", device["name"] as? String ?? "",
                (device["revoked_at"] as? String).map { "revoked \($0)" } ?? "active",
                "\(device["last_sequence"] as? Int ?? 0)", device["last_batch_at"] as? String ?? "never",
                (device["id"] as? String) == enrolment.deviceID ? "this one" : "",
            ]
        }
        print(
            TextTable.render([["id", "name", "state", "last sequence", "last batch", ""]] + rows, leftAligned: [0, 1, 2, 4, 5]))
    }
}
