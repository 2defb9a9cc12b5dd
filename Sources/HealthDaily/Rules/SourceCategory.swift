import HealthCore

/// The device families the normalisation rules tell apart, spelled as in the payload.
public enum SourceCategory: String, Sendable, Codable, CaseIterable, Comparable {
    case appleWatch = "apple_watch"
    case iPhone = "iphone"
    case other

    /// From the sample's device (`hardware`, `model`, `name`), never from `sourceName`.
    public init(_ sample: Sample) {
        switch sample.device?.deviceClass {
        case .appleWatch: self = .appleWatch
        case .iPhone: self = .iPhone
        case .other, nil: self = .other
        }
    }

    /// Watch before iPhone before anything else.
    public var priority: Int {
        switch self {
        case .appleWatch: 0
        case .iPhone: 1
        case .other: 2
        }
    }

    public static func < (lhs: SourceCategory, rhs: SourceCategory) -> Bool { lhs.priority < rhs.priority }
}
