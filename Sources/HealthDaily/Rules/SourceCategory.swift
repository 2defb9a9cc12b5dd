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

/// A normalisation rule set, named in every payload.
public enum NormalizationVersion: String, Sendable, Codable, CaseIterable {
    /// The Flo seed's rules made precise (`ALGORITHMS.md` §2).
    case v1 = "norm_v1"
    /// Cumulative metrics merged by the second: lower-priority sources count only where
    /// higher-priority ones do not cover (`ALGORITHMS.md` §5).
    case v2 = "norm_v2"
}
