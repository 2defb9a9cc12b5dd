import Foundation

/// HealthKit's workout event types by raw value (`HKWorkoutEventType`), named as exports
/// write them.
public enum HealthKitWorkoutEvents {
    /// Raw values → names as exports write them.
    public static let names: [Int: String] = [
        1: "HKWorkoutEventTypePause",
        2: "HKWorkoutEventTypeResume",
        3: "HKWorkoutEventTypeLap",
        4: "HKWorkoutEventTypeMarker",
        5: "HKWorkoutEventTypeMotionPaused",
        6: "HKWorkoutEventTypeMotionResumed",
        7: "HKWorkoutEventTypeSegment",
        8: "HKWorkoutEventTypePauseOrResumeRequest",
    ]

    /// Names as exports write them → raw values.
    public static let values: [String: Int] = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })
}
