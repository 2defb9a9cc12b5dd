import HealthCore

/// The device of a sample on the wire (every field optional).
public struct DeviceWire: Codable, Sendable, Hashable {
    public var name: String?
    public var manufacturer: String?
    public var model: String?
    public var hardware: String?
    public var software: String?
    public var firmware: String?
    public var localIdentifier: String?
    public var udiDeviceIdentifier: String?

    enum CodingKeys: String, CodingKey {
        case name, manufacturer, model, hardware, software, firmware
        case localIdentifier = "local_identifier"
        case udiDeviceIdentifier = "udi_device_identifier"
    }

    public init(_ device: Device) {
        name = device.name
        manufacturer = device.manufacturer
        model = device.model
        hardware = device.hardware
        software = device.software
        firmware = device.firmware
        localIdentifier = device.localIdentifier
        udiDeviceIdentifier = device.udiDeviceIdentifier
    }

    /// The device it describes.
    public var device: Device {
        Device(
            name: name, manufacturer: manufacturer, model: model, hardware: hardware, software: software,
            firmware: firmware, localIdentifier: localIdentifier, udiDeviceIdentifier: udiDeviceIdentifier)
    }
}
