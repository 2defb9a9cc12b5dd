/// The hardware that recorded a sample, parsed from the export's `device` attribute by known
/// keys (`name`, `manufacturer`, `model`, `hardware`, `software`, `localIdentifier`, …).
///
/// ```swift
/// let device = Device(exportString: "<<HKDevice: 0x283b92580>, name:Apple Watch, "
///     + "manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:9.1>")
/// device.hardware      // "Watch6,1"
/// device.deviceClass   // .appleWatch
/// ```
///
/// A device is shared by thousands of samples, so its fields live in one immutable,
/// reference-counted box: copying a `Device` costs one retain, and two copies of the same
/// device compare equal without comparing strings. It is still a value: setting a field
/// replaces the box.
public struct Device: Hashable, Sendable, Codable {
    private struct Fields: Hashable, Sendable, Codable {
        var name: String?
        var manufacturer: String?
        var model: String?
        var hardware: String?
        var software: String?
        var firmware: String?
        var localIdentifier: String?
        var udiDeviceIdentifier: String?
        var creationDate: String?
    }

    private final class Storage: Sendable {
        let fields: Fields
        /// The bytes a content key holds for this device, encoded once.
        let contentKeyEncoding: [UInt8]

        init(_ fields: Fields) {
            self.fields = fields
            var builder = ContentKeyBuilder()
            for field in [
                fields.name, fields.manufacturer, fields.model, fields.hardware, fields.software, fields.firmware,
                fields.localIdentifier, fields.udiDeviceIdentifier, fields.creationDate,
            ] {
                builder.add(field)
            }
            contentKeyEncoding = builder.encoded
        }
    }

    private var storage: Storage

    public var name: String? {
        get { storage.fields.name }
        set { update { $0.name = newValue } }
    }
    public var manufacturer: String? {
        get { storage.fields.manufacturer }
        set { update { $0.manufacturer = newValue } }
    }
    public var model: String? {
        get { storage.fields.model }
        set { update { $0.model = newValue } }
    }
    public var hardware: String? {
        get { storage.fields.hardware }
        set { update { $0.hardware = newValue } }
    }
    public var software: String? {
        get { storage.fields.software }
        set { update { $0.software = newValue } }
    }
    public var firmware: String? {
        get { storage.fields.firmware }
        set { update { $0.firmware = newValue } }
    }
    public var localIdentifier: String? {
        get { storage.fields.localIdentifier }
        set { update { $0.localIdentifier = newValue } }
    }
    public var udiDeviceIdentifier: String? {
        get { storage.fields.udiDeviceIdentifier }
        set { update { $0.udiDeviceIdentifier = newValue } }
    }
    /// `creation date` as written (AirPods and other accessories carry it).
    public var creationDate: String? {
        get { storage.fields.creationDate }
        set { update { $0.creationDate = newValue } }
    }

    public init(
        name: String? = nil, manufacturer: String? = nil, model: String? = nil,
        hardware: String? = nil, software: String? = nil, firmware: String? = nil,
        localIdentifier: String? = nil, udiDeviceIdentifier: String? = nil, creationDate: String? = nil
    ) {
        storage = Storage(
            Fields(
                name: name, manufacturer: manufacturer, model: model, hardware: hardware, software: software,
                firmware: firmware, localIdentifier: localIdentifier, udiDeviceIdentifier: udiDeviceIdentifier,
                creationDate: creationDate))
    }

    /// The bytes a content key holds for this device.
    var contentKeyEncoding: [UInt8] { storage.contentKeyEncoding }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    public static func == (lhs: Device, rhs: Device) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) { storage.fields.hash(into: &hasher) }

    public init(from decoder: any Decoder) throws { storage = Storage(try Fields(from: decoder)) }

    public func encode(to encoder: any Encoder) throws { try storage.fields.encode(to: encoder) }

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

extension Device {
    /// Every field joined, for a store's device table: one physical device is one row,
    /// whatever its `0x…` address in the export.
    public var storageKey: String {
        [name, manufacturer, model, hardware, software, firmware, localIdentifier, udiDeviceIdentifier, creationDate]
            .map { $0 ?? "\u{1E}" }.joined(separator: "\u{1F}")
    }
}

extension Device: CustomReflectable {
    /// The fields, not the box, in test failures and `dump`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name as Any, "manufacturer": manufacturer as Any, "model": model as Any,
                "hardware": hardware as Any, "software": software as Any, "firmware": firmware as Any,
                "localIdentifier": localIdentifier as Any, "udiDeviceIdentifier": udiDeviceIdentifier as Any,
                "creationDate": creationDate as Any,
            ], displayStyle: .struct)
    }
}

/// The device families that daily normalisation tells apart.
public enum DeviceClass: String, Sendable, Codable {
    case appleWatch, iPhone, other
}
