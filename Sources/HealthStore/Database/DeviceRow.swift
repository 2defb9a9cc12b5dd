import Foundation
import GRDB
import HealthCore

/// Maps ``Device`` to and from the `device` table. `key` is every field joined, so one
/// physical device is one row whatever its `0x…` address in the export.
enum DeviceRow {
    static func key(_ device: Device) -> String {
        [
            device.name, device.manufacturer, device.model, device.hardware, device.software, device.firmware,
            device.localIdentifier, device.udiDeviceIdentifier, device.creationDate,
        ]
        .map { $0 ?? "\u{1E}" }.joined(separator: "\u{1F}")
    }

    static func insert(_ device: Device, db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO device (key, name, manufacturer, model, hardware, software, firmware, local_identifier,
                    udi_device_identifier, creation_date, device_class) VALUES (?,?,?,?,?,?,?,?,?,?,?)
                """,
            arguments: [
                key(device), device.name, device.manufacturer, device.model, device.hardware, device.software,
                device.firmware, device.localIdentifier, device.udiDeviceIdentifier, device.creationDate,
                device.deviceClass.rawValue,
            ])
    }

    static func device(from row: Row, prefix: String = "") -> Device {
        Device(
            name: row[prefix + "name"], manufacturer: row[prefix + "manufacturer"], model: row[prefix + "model"],
            hardware: row[prefix + "hardware"], software: row[prefix + "software"], firmware: row[prefix + "firmware"],
            localIdentifier: row[prefix + "local_identifier"], udiDeviceIdentifier: row[prefix + "udi_device_identifier"],
            creationDate: row[prefix + "creation_date"])
    }
}
