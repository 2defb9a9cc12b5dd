#if !canImport(HealthKit)
    /// Sleep stages, with HealthKit's raw values.
    public enum HKCategoryValueSleepAnalysis: Int, Sendable, CaseIterable {
        case inBed = 0
        case asleepUnspecified = 1
        case awake = 2
        case asleepCore = 3
        case asleepDeep = 4
        case asleepREM = 5

        @available(*, deprecated, renamed: "asleepUnspecified")
        public static var asleep: HKCategoryValueSleepAnalysis { .asleepUnspecified }

        /// The stages that count as asleep.
        public static var allAsleepValues: Set<HKCategoryValueSleepAnalysis> {
            [.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM]
        }
    }

    /// Stand hours.
    public enum HKCategoryValueAppleStandHour: Int, Sendable {
        case stood = 0
        case idle = 1
    }

    /// The value of categories that have none (mindful sessions, heart rate events…).
    public enum HKCategoryValue: Int, Sendable {
        case notApplicable = 0
    }

    /// Symptom severities.
    public enum HKCategoryValueSeverity: Int, Sendable {
        case unspecified = 0
        case notPresent = 1
        case mild = 2
        case moderate = 3
        case severe = 4
    }

    /// Presence of a symptom.
    public enum HKCategoryValuePresence: Int, Sendable {
        case present = 0
        case notPresent = 1
    }

    /// Menstrual flow.
    public enum HKCategoryValueMenstrualFlow: Int, Sendable {
        case unspecified = 1
        case light = 2
        case medium = 3
        case heavy = 4
        case none = 5
    }

#endif
