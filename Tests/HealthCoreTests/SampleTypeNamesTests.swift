import Foundation
import Testing

@testable import HealthCore

/// Issue 33 §5: one table of type names — short names and HealthKit identifiers — read by
/// every way in; anything else is an error naming the closest names.
@Suite struct SampleTypeNamesTests {
    @Test func i33_names_shortNamesAndIdentifiersNameOneType() throws {
        let expected: [(String, SampleType)] = [
            ("steps", .stepCount), ("HKQuantityTypeIdentifierStepCount", .stepCount), ("step_count", .stepCount),
            ("heart_rate", .heartRate), ("HKQuantityTypeIdentifierHeartRate", .heartRate), ("hrv", .heartRateVariabilitySDNN),
            ("sleep", .sleepAnalysis), ("sleep_analysis", .sleepAnalysis), ("weight", .bodyMass),
            ("active_energy", .activeEnergyBurned), ("workout", .workout), ("blood_pressure", .bloodPressure),
            ("vo2max", SampleType("HKQuantityTypeIdentifierVO2Max")), ("vo2_max", SampleType("HKQuantityTypeIdentifierVO2Max")),
            ("mindful_session", SampleType("HKCategoryTypeIdentifierMindfulSession")), ("audiogram", .audiogram),
        ]
        for (name, type) in expected { #expect(try SampleTypeNames.type(named: name) == type, "\(name)") }
        #expect(SampleType.stepCount.shortName == "steps")
        #expect(SampleType.heartRateVariabilitySDNN.shortName == "hrv")
        #expect(SampleType("HAE:made_up_metric").shortName == nil)
        #expect(SampleTypeNames.entries.count == 153)
    }

    /// No spelling names two types: every entry's name, derived name and identifier lead
    /// back to it.
    @Test func i33_names_everySpellingIsOneTypes() throws {
        var seen: [String: SampleType] = [:]
        for entry in SampleTypeNames.entries {
            let spellings = Set(
                [entry.name, entry.type.identifier] + [SampleTypeNames.derivedName(of: entry.type)].compactMap { $0 })
            for spelling in spellings {
                #expect(seen.updateValue(entry.type, forKey: spelling) == nil, "\(spelling) names two types")
                #expect(try SampleTypeNames.type(named: spelling) == entry.type)
            }
        }
    }

    @Test func i33_names_aWrongNameSuggestsTheClosest() {
        let cases: [(String, [String])] = [
            (
                "StepCount",
                [
                    "steps (HKQuantityTypeIdentifierStepCount)", "push_count (HKQuantityTypeIdentifierPushCount)",
                    "workout (HKWorkoutTypeIdentifier)",
                ]
            ),
            (
                "HeartRate",
                [
                    "heart_rate (HKQuantityTypeIdentifierHeartRate)", "heartburn (HKCategoryTypeIdentifierHeartburn)",
                    "headache (HKCategoryTypeIdentifierHeadache)",
                ]
            ),
            (
                "stpes",
                [
                    "steps (HKQuantityTypeIdentifierStepCount)", "sleep (HKCategoryTypeIdentifierSleepAnalysis)",
                    "acne (HKCategoryTypeIdentifierAcne)",
                ]
            ),
            (
                "HKQuantityTypeIdentifierStepCont",
                [
                    "steps (HKQuantityTypeIdentifierStepCount)", "push_count (HKQuantityTypeIdentifierPushCount)",
                    "acne (HKCategoryTypeIdentifierAcne)",
                ]
            ),
        ]
        for (name, suggestions) in cases {
            #expect(throws: UnknownSampleTypeName(name: name, suggestions: suggestions)) {
                try SampleTypeNames.type(named: name)
            }
        }
        let error = UnknownSampleTypeName(name: "stpes", suggestions: ["steps (HKQuantityTypeIdentifierStepCount)"])
        #expect(
            error.description
                == "unknown type 'stpes'; did you mean steps (HKQuantityTypeIdentifierStepCount)? A type is a short name "
                + "such as steps, heart_rate or sleep, or a HealthKit identifier such as HKQuantityTypeIdentifierStepCount")
    }

    /// A type the table does not know is a name only when the store holds it.
    @Test func i33_names_aStoredTypeOutsideTheTableIsNamedByTheStore() async throws {
        let made = SampleType("HAE:made_up_metric")
        let newer = SampleType("HKQuantityTypeIdentifierSomethingNew")
        #expect(throws: UnknownSampleTypeName.self) { try SampleTypeNames.type(named: made.identifier) }
        #expect(try SampleTypeNames.type(named: made.identifier, storedTypes: [made, newer]) == made)
        #expect(try SampleTypeNames.type(named: "something_new", storedTypes: [made, newer]) == newer)
        #expect(
            SampleTypeNames.suggestions(for: "HAE:made_up", storedTypes: [made]) == [
                "HAE:made_up_metric", "headache (HKCategoryTypeIdentifierHeadache)",
                "sleep (HKCategoryTypeIdentifierSleepAnalysis)",
            ])
        // The store is asked only when the table does not know the name.
        let asked = Locked(0)
        let lister: () async throws -> [SampleType] = {
            asked.withLock { $0 += 1 }
            return [made]
        }
        #expect(try await SampleTypeNames.type(named: "steps", storedTypes: lister) == .stepCount)
        #expect(asked.withLock { $0 } == 0)
        #expect(try await SampleTypeNames.type(named: made.identifier, storedTypes: lister) == made)
        #expect(asked.withLock { $0 } == 1)
    }
}
