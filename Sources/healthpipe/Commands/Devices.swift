import ArgumentParser
import Foundation

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Enrol this machine as a sync device, rotate its key, list the account's devices.",
        subcommands: [DevicesEnrol.self, DevicesRotateKey.self, DevicesList.self])
}
