/// The hardware that recorded a sample, parsed from the export's `device` attribute by known
/// keys (`name`, `manufacturer`, `model`, `hardware`, `software`, `localIdentifier`, …).
///
/// ```swift
/// let device = Device(exportString: "<<HKDevice: 0x283b92580>, name:Apple Watch, "
///     + "manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:9.1>")
/// device.hardware      // "Watch6,1"
/// device.deviceClass   // .appleWatch
/// ```
public struct Device: Hashable, Sendable, Codable {
    public var name: String?
    public var manufacturer: String?
    public var model: String?
    public var hardware: String?
    public var software: String?
    public var firmware: String?
    public var localIdentifier: String?
    public var udiDeviceIdentifier: String?
    /// `creation date` as written (AirPods and other accessories carry it).
    public var creationDate: String?

    public init(
        name: String? = nil, manufacturer: String? = nil, model: String? = nil,
        hardware: String? = nil, software: String? = nil, firmware: String? = nil,
        localIdentifier: String? = nil, udiDeviceIdentifier: String? = nil, creationDate: String? = nil
    ) {
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.hardware = hardware
        self.software = software
        self.firmware = firmware
        self.localIdentifier = localIdentifier
        self.udiDeviceIdentifier = udiDeviceIdentifier
        self.creationDate = creationDate
    }

    /// What kind of device this is, from `hardware`, `model` and `name` (in that order).
    public var deviceClass: DeviceClass {
        for field in [hardware, model, name] {
            guard let field else { continue }
            if field.hasPrefix("Watch") || field.contains("Apple Watch") { return .appleWatch }
            if field.hasPrefix("iPhone") { return .iPhone }
        }
        return .other
    }
}

/// The device families that daily normalisation tells apart.
public enum DeviceClass: String, Sendable, Codable {
    case appleWatch, iPhone, other
}
