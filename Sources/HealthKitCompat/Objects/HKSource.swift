#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// The app or device that wrote samples. Exports carry no bundle identifiers: a source
    /// read from one has an empty ``bundleIdentifier``.
    public final class HKSource: NSObject, @unchecked Sendable {
        public let name: String
        public let bundleIdentifier: String

        init(name: String, bundleIdentifier: String = "") {
            self.name = name
            self.bundleIdentifier = bundleIdentifier
            super.init()
        }

        /// The source of samples this program writes.
        public class func `default`() -> HKSource { HKSource(name: "HealthPipeline", bundleIdentifier: "healthpipeline") }

        public override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? HKSource else { return false }
            return name == other.name && bundleIdentifier == other.bundleIdentifier
        }

        public override var hash: Int { name.hashValue }
    }

    /// A source at a version.
    public final class HKSourceRevision: NSObject, @unchecked Sendable {
        public let source: HKSource
        public let version: String?
        public let productType: String?
        public let operatingSystemVersion: OperatingSystemVersion

        public init(
            source: HKSource, version: String?, productType: String?, operatingSystemVersion: OperatingSystemVersion
        ) {
            self.source = source
            self.version = version
            self.productType = productType
            self.operatingSystemVersion = operatingSystemVersion
            super.init()
        }

        public convenience init(source: HKSource, version: String?) {
            self.init(
                source: source, version: version, productType: nil,
                operatingSystemVersion: OperatingSystemVersion(majorVersion: 0, minorVersion: 0, patchVersion: 0))
        }
    }

    /// The hardware that recorded a sample.
    public final class HKDevice: NSObject, @unchecked Sendable {
        public let name: String?
        public let manufacturer: String?
        public let model: String?
        public let hardwareVersion: String?
        public let firmwareVersion: String?
        public let softwareVersion: String?
        public let localIdentifier: String?
        public let udiDeviceIdentifier: String?
        /// Where the device's samples rank when sources are merged: Apple Watch 0, iPhone 1,
        /// anything else 2 (``Device/deviceClass``), worked out once.
        let priority: Int

        public init(
            name: String?, manufacturer: String?, model: String?, hardwareVersion: String?, firmwareVersion: String?,
            softwareVersion: String?, localIdentifier: String?, udiDeviceIdentifier: String?
        ) {
            self.name = name
            self.manufacturer = manufacturer
            self.model = model
            self.hardwareVersion = hardwareVersion
            self.firmwareVersion = firmwareVersion
            self.softwareVersion = softwareVersion
            self.localIdentifier = localIdentifier
            self.udiDeviceIdentifier = udiDeviceIdentifier
            switch Device(name: name, manufacturer: manufacturer, model: model, hardware: hardwareVersion).deviceClass {
            case .appleWatch: priority = 0
            case .iPhone: priority = 1
            case .other: priority = 2
            }
            super.init()
        }

        /// This machine, as a device.
        public class func local() -> HKDevice {
            HKDevice(
                name: ProcessInfo.processInfo.hostName, manufacturer: nil, model: nil, hardwareVersion: nil,
                firmwareVersion: nil, softwareVersion: ProcessInfo.processInfo.operatingSystemVersionString,
                localIdentifier: nil, udiDeviceIdentifier: nil)
        }

        private var fields: [String?] {
            [name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier, udiDeviceIdentifier]
        }

        public override func isEqual(_ object: Any?) -> Bool { (object as? HKDevice)?.fields == fields }

        public override var hash: Int { fields.hashValue }
    }
#endif
