/// A normalisation rule set, named in every payload.
public enum NormalizationVersion: String, Sendable, Codable, CaseIterable {
    /// The first rules, made precise (docs/daily-metrics.md, `norm_v1`).
    case v1 = "norm_v1"
    /// Cumulative metrics merged by the second: lower-priority sources count only where
    /// higher-priority ones do not cover (docs/daily-metrics.md, `norm_v2`).
    case v2 = "norm_v2"
}

extension NormalizationVersion {
    /// `norm_v1 or norm_v2`, for messages.
    public static var names: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }
}
