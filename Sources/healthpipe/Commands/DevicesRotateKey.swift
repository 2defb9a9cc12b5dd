import ArgumentParser
import Foundation
import HealthSync

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
