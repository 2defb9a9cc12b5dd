import Foundation
import GRDB
import HealthCore

/// Maps ``Device`` to and from the `device` table, keyed by ``Device/storageKey``.
enum DeviceRow {
    static func insert(_ device: Device, db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO device (key, name, manufacturer, model, hardware, software, firmware, local_identifier,
                    udi_device_identifier, creation_date, device_class) VALUES (?,?,?,?,?,?,?,?,?,?,?)
                """,
            arguments: [
                device.storageKey, device.name, device.manufacturer, device.model, device.hardware, device.software,
                device.firmware, device.localIdentifier, device.udiDeviceIdentifier, device.creationDate,
                device.deviceClass.rawValue,
            ])
    }

    /// The columns of a device's fields, in the order ``device(from:at:)`` reads them.
    static let fields = [
        "name", "manufacturer", "model", "hardware", "software", "firmware", "local_identifier", "udi_device_identifier",
        "creation_date",
    ]

    /// The device whose ``fields`` are the row's columns from `first` on.
    static func device(from row: Row, at first: Int) -> Device {
        Device(
            name: row[first], manufacturer: row[first + 1], model: row[first + 2], hardware: row[first + 3],
            software: row[first + 4], firmware: row[first + 5], localIdentifier: row[first + 6],
            udiDeviceIdentifier: row[first + 7], creationDate: row[first + 8])
    }

    /// The device of a `device` row, its columns found by name.
    static func device(from row: Row) -> Device {
        Device(
            name: row["name"], manufacturer: row["manufacturer"], model: row["model"], hardware: row["hardware"],
            software: row["software"], firmware: row["firmware"], localIdentifier: row["local_identifier"],
            udiDeviceIdentifier: row["udi_device_identifier"], creationDate: row["creation_date"])
    }
}
