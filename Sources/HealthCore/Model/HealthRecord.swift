/// One top-level item of a HealthKit export, as readers produce them and stores take them.
public enum HealthRecord: Hashable, Sendable, Codable {
    case sample(Sample)
    case correlation(Correlation)
    case workout(Workout)
    case activitySummary(ActivitySummary)
    case clinicalRecord(ClinicalRecord)
    case audiogram(Audiogram)
    case electrocardiogram(Electrocardiogram)
    case other(RawElement)

    /// The element family, for counting.
    public var family: Family {
        switch self {
        case .sample: .sample
        case .correlation: .correlation
        case .workout: .workout
        case .activitySummary: .activitySummary
        case .clinicalRecord: .clinicalRecord
        case .audiogram: .audiogram
        case .electrocardiogram: .electrocardiogram
        case .other: .other
        }
    }

    /// The families of ``HealthRecord``.
    public enum Family: String, Sendable, Codable, CaseIterable {
        case sample, correlation, workout, activitySummary, clinicalRecord, audiogram, electrocardiogram, other
    }
}
