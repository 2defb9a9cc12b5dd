/// HealthKit's workout activity types: exports and our store name them
/// (`HKWorkoutActivityTypeRunning`), HealthKit's API numbers them (37).
public enum HealthKitWorkoutActivities {
    /// Raw values → names as exports write them.
    public static let names: [UInt: String] = [
        1: "HKWorkoutActivityTypeAmericanFootball",
        2: "HKWorkoutActivityTypeArchery",
        3: "HKWorkoutActivityTypeAustralianFootball",
        4: "HKWorkoutActivityTypeBadminton",
        5: "HKWorkoutActivityTypeBaseball",
        6: "HKWorkoutActivityTypeBasketball",
        7: "HKWorkoutActivityTypeBowling",
        8: "HKWorkoutActivityTypeBoxing",
        9: "HKWorkoutActivityTypeClimbing",
        10: "HKWorkoutActivityTypeCricket",
        11: "HKWorkoutActivityTypeCrossTraining",
        12: "HKWorkoutActivityTypeCurling",
        13: "HKWorkoutActivityTypeCycling",
        14: "HKWorkoutActivityTypeDance",
        15: "HKWorkoutActivityTypeDanceInspiredTraining",
        16: "HKWorkoutActivityTypeElliptical",
        17: "HKWorkoutActivityTypeEquestrianSports",
        18: "HKWorkoutActivityTypeFencing",
        19: "HKWorkoutActivityTypeFishing",
        20: "HKWorkoutActivityTypeFunctionalStrengthTraining",
        21: "HKWorkoutActivityTypeGolf",
        22: "HKWorkoutActivityTypeGymnastics",
        23: "HKWorkoutActivityTypeHandball",
        24: "HKWorkoutActivityTypeHiking",
        25: "HKWorkoutActivityTypeHockey",
        26: "HKWorkoutActivityTypeHunting",
        27: "HKWorkoutActivityTypeLacrosse",
        28: "HKWorkoutActivityTypeMartialArts",
        29: "HKWorkoutActivityTypeMindAndBody",
        30: "HKWorkoutActivityTypeMixedMetabolicCardioTraining",
        31: "HKWorkoutActivityTypePaddleSports",
        32: "HKWorkoutActivityTypePlay",
        33: "HKWorkoutActivityTypePreparationAndRecovery",
        34: "HKWorkoutActivityTypeRacquetball",
        35: "HKWorkoutActivityTypeRowing",
        36: "HKWorkoutActivityTypeRugby",
        37: "HKWorkoutActivityTypeRunning",
        38: "HKWorkoutActivityTypeSailing",
        39: "HKWorkoutActivityTypeSkatingSports",
        40: "HKWorkoutActivityTypeSnowSports",
        41: "HKWorkoutActivityTypeSoccer",
        42: "HKWorkoutActivityTypeSoftball",
        43: "HKWorkoutActivityTypeSquash",
        44: "HKWorkoutActivityTypeStairClimbing",
        45: "HKWorkoutActivityTypeSurfingSports",
        46: "HKWorkoutActivityTypeSwimming",
        47: "HKWorkoutActivityTypeTableTennis",
        48: "HKWorkoutActivityTypeTennis",
        49: "HKWorkoutActivityTypeTrackAndField",
        50: "HKWorkoutActivityTypeTraditionalStrengthTraining",
        51: "HKWorkoutActivityTypeVolleyball",
        52: "HKWorkoutActivityTypeWalking",
        53: "HKWorkoutActivityTypeWaterFitness",
        54: "HKWorkoutActivityTypeWaterPolo",
        55: "HKWorkoutActivityTypeWaterSports",
        56: "HKWorkoutActivityTypeWrestling",
        57: "HKWorkoutActivityTypeYoga",
        58: "HKWorkoutActivityTypeBarre",
        59: "HKWorkoutActivityTypeCoreTraining",
        60: "HKWorkoutActivityTypeCrossCountrySkiing",
        61: "HKWorkoutActivityTypeDownhillSkiing",
        62: "HKWorkoutActivityTypeFlexibility",
        63: "HKWorkoutActivityTypeHighIntensityIntervalTraining",
        64: "HKWorkoutActivityTypeJumpRope",
        65: "HKWorkoutActivityTypeKickboxing",
        66: "HKWorkoutActivityTypePilates",
        67: "HKWorkoutActivityTypeSnowboarding",
        68: "HKWorkoutActivityTypeStairs",
        69: "HKWorkoutActivityTypeStepTraining",
        70: "HKWorkoutActivityTypeWheelchairWalkPace",
        71: "HKWorkoutActivityTypeWheelchairRunPace",
        72: "HKWorkoutActivityTypeTaiChi",
        73: "HKWorkoutActivityTypeMixedCardio",
        74: "HKWorkoutActivityTypeHandCycling",
        75: "HKWorkoutActivityTypeDiscSports",
        76: "HKWorkoutActivityTypeFitnessGaming",
        77: "HKWorkoutActivityTypeCardioDance",
        78: "HKWorkoutActivityTypeSocialDance",
        79: "HKWorkoutActivityTypePickleball",
        80: "HKWorkoutActivityTypeCooldown",
        82: "HKWorkoutActivityTypeSwimBikeRun",
        83: "HKWorkoutActivityTypeTransition",
        84: "HKWorkoutActivityTypeUnderwaterDiving",
        3000: "HKWorkoutActivityTypeOther",
    ]

    /// Names → raw values.
    public static let rawValues: [String: UInt] = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })

    private static let prefix = "HKWorkoutActivityType"

    /// `HKWorkoutActivityTypeRunning` → `Running`: the name people read. A name without the
    /// prefix, or with nothing after it, stays as it is.
    public static func shortName(_ activityType: String) -> String {
        let rest = activityType.dropFirst(prefix.count)
        return activityType.hasPrefix(prefix) && !rest.isEmpty ? String(rest) : activityType
    }

    /// Whether the recorded `activityType` is the activity `asked` (`running`,
    /// `traditional_strength_training`, `HKWorkoutActivityTypeRunning`): compared without the
    /// prefix, case or underscores.
    public static func matches(_ activityType: String, _ asked: String) -> Bool { key(activityType) == key(asked) }

    private static func key(_ text: String) -> String {
        var name = Substring(text.lowercased())
        let lowered = prefix.lowercased()
        if name.hasPrefix(lowered), name.dropFirst(lowered.count).contains(where: { $0.isLetter || $0.isNumber }) {
            name = name.dropFirst(lowered.count)
        }
        return name.replacingOccurrences(of: "_", with: "")
    }
}

extension HealthKitWorkoutActivities {
    /// Whether `asked` names one of HealthKit's activities (as ``matches(_:_:)`` reads it).
    public static func isKnown(_ asked: String) -> Bool { names.values.contains { matches($0, asked) } }

    /// The `limit` activities closest to `asked` by edit distance, closest first, as their
    /// short names (`Running`).
    public static func closest(to asked: String, limit: Int = 3) -> [String] {
        let given = SampleTypeNames.folded(String(asked.prefix(200)).replacingOccurrences(of: prefix, with: ""))
        return names.values.map { shortName($0) }
            .map { (distance: SampleTypeNames.editDistance(given, SampleTypeNames.folded($0)), name: $0) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(limit).map(\.name)
    }
}
