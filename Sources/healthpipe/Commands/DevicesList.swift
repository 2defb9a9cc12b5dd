import ArgumentParser
import Foundation
import HealthSync

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
