import Foundation

/// What the export says about itself: `HealthData@locale`, `ExportDate`, and the
/// `<!-- HealthKit Export Version: N -->` comment of its DTD.
public struct ExportInfo: Hashable, Sendable, Codable {
    public var locale: String?
    public var exportDate: Date?
    public var exportVersion: Int?
    /// The `Me` element: characteristics such as `HKCharacteristicTypeIdentifierDateOfBirth`.
    public var characteristics: [MetadataEntry]

    public init(locale: String? = nil, exportDate: Date? = nil, exportVersion: Int? = nil, characteristics: [MetadataEntry] = [])
    {
        self.locale = locale
        self.exportDate = exportDate
        self.exportVersion = exportVersion
        self.characteristics = characteristics
    }
}
