/// One `MetadataEntry` of a sample. Metadata is an ordered list, not a dictionary: keys
/// repeat within one element and collide case-insensitively (`meal` / `Meal`).
public struct MetadataEntry: Hashable, Sendable, Codable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == MetadataEntry {
    /// The first value stored under `key` (exact, case-sensitive match).
    public func value(for key: String) -> String? {
        first { $0.key == key }?.value
    }

    /// The IANA zone recorded in `HKTimeZone`, when present.
    public var timeZoneIdentifier: String? { value(for: MetadataEntry.timeZoneKey) }
}

extension MetadataEntry {
    /// The key under which HealthKit records the IANA time zone of a sample.
    public static let timeZoneKey = "HKTimeZone"
}
