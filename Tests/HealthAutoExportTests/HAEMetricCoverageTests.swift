import Foundation
import HealthCore
import Testing

@testable import HealthAutoExport

/// Every metric name the app sends maps to its HealthKit type with a unit HealthKit reads;
/// `unknown_metrics` is for true unknowns only (issue 14).
@Suite struct HAEMetricCoverageTests {
    /// Names as the app sends them, with the unit it sends and the type they must become.
    static let expected: [(name: String, units: String, type: String)] = [
        ("step_count", "count", "StepCount"), ("active_energy", "kcal", "ActiveEnergyBurned"),
        ("basal_energy_burned", "kJ", "BasalEnergyBurned"), ("walking_running_distance", "km", "DistanceWalkingRunning"),
        ("cycling_distance", "mi", "DistanceCycling"), ("swimming_distance", "m", "DistanceSwimming"),
        ("flights_climbed", "count", "FlightsClimbed"), ("apple_exercise_time", "min", "AppleExerciseTime"),
        ("apple_stand_time", "min", "AppleStandTime"), ("time_in_daylight", "min", "TimeInDaylight"),
        ("physical_effort", "kcal/hr·kg", "PhysicalEffort"), ("running_speed", "km/hr", "RunningSpeed"),
        ("running_power", "W", "RunningPower"), ("walking_speed", "km/hr", "WalkingSpeed"),
        ("walking_step_length", "cm", "WalkingStepLength"),
        ("walking_asymmetry_percentage", "%", "WalkingAsymmetryPercentage"),
        ("walking_double_support_percentage", "%", "WalkingDoubleSupportPercentage"),
        ("six_minute_walking_test_distance", "m", "SixMinuteWalkTestDistance"),
        ("stair_speed_up", "m/s", "StairAscentSpeed"), ("stair_speed_down", "m/s", "StairDescentSpeed"),
        ("resting_heart_rate", "bpm", "RestingHeartRate"), ("walking_heart_rate_average", "bpm", "WalkingHeartRateAverage"),
        ("heart_rate_variability", "ms", "HeartRateVariabilitySDNN"), ("cardio_recovery", "bpm", "HeartRateRecoveryOneMinute"),
        ("vo2_max", "ml/(kg·min)", "VO2Max"), ("blood_oxygen_saturation", "%", "OxygenSaturation"),
        ("respiratory_rate", "breaths/min", "RespiratoryRate"),
        ("breathing_disturbances", "count", "AppleSleepingBreathingDisturbances"),
        ("weight_body_mass", "lb", "BodyMass"), ("height", "cm", "Height"), ("body_mass_index", "count", "BodyMassIndex"),
        ("body_fat_percentage", "%", "BodyFatPercentage"), ("lean_body_mass", "kg", "LeanBodyMass"),
        ("body_temperature", "degF", "BodyTemperature"),
        ("apple_sleeping_wrist_temperature", "degC", "AppleSleepingWristTemperature"),
        ("blood_glucose", "mg/dL", "BloodGlucose"), ("blood_alcohol_content", "%", "BloodAlcoholContent"),
        ("environmental_audio_exposure", "dBASPL", "EnvironmentalAudioExposure"),
        ("headphone_audio_exposure", "dBASPL", "HeadphoneAudioExposure"), ("dietary_energy", "kcal", "DietaryEnergyConsumed"),
        ("protein", "g", "DietaryProtein"), ("dietary_protein", "g", "DietaryProtein"),
        ("carbohydrates", "g", "DietaryCarbohydrates"), ("total_fat", "g", "DietaryFatTotal"),
        ("dietary_caffeine", "mg", "DietaryCaffeine"), ("dietary_water", "mL", "DietaryWater"),
        ("vitamin_d", "mcg", "DietaryVitaminD"), ("sodium", "mg", "DietarySodium"),
    ]

    static func body(_ metrics: [(name: String, units: String, qty: Double)]) -> Data {
        let list = metrics.map { metric in
            #"{"name": "\#(metric.name)", "units": "\#(metric.units)", "data": [{"date": "2024-06-01 07:00:00 -0700", "qty": \#(metric.qty), "source": "Watch"}]}"#
        }
        return Data(#"{"data": {"metrics": [\#(list.joined(separator: ","))]}}"#.utf8)
    }

    @Test func everyDocumentedMetricMapsToItsHealthKitType() throws {
        // 1 of each, but a body temperature of 1 °F, which the plausible ranges refuse (issue 32, C1).
        let batch = try HAEReader.read(Self.body(Self.expected.map { ($0.name, $0.units, $0.units == "degF" ? 98.6 : 1) }))
        #expect(batch.unknownMetrics.isEmpty)
        let types = batch.records.compactMap { record -> String? in
            guard case .sample(let sample) = record else { return nil }
            return sample.type.identifier
        }
        #expect(types == Self.expected.map { "HKQuantityTypeIdentifier" + $0.type })
        // Every unit is one HealthKit reads, but W (power), which our catalog does not convert.
        for case .sample(let sample) in batch.records where sample.value.unit != "W" {
            #expect((try? HealthUnit(parsing: sample.value.unit ?? "")) != nil, "\(sample.type.identifier)")
        }
    }

    @Test func percentagesBecomeHealthKitFractionsAndUnitsAreHealthKits() throws {
        let batch = try HAEReader.read(
            Self.body([
                ("blood_oxygen_saturation", "%", 97), ("body_fat_percentage", "%", 21.5), ("respiratory_rate", "breaths/min", 14),
                ("vo2_max", "ml/(kg·min)", 41.5),
            ]))
        let values = batch.records.compactMap { record -> SampleValue? in
            guard case .sample(let sample) = record else { return nil }
            return sample.value
        }
        #expect(
            values == [
                .quantity(0.97, unit: "%"), .quantity(0.215, unit: "%"), .quantity(14, unit: "count/min"),
                .quantity(41.5, unit: "mL/(kg·min)"),
            ])
    }

    @Test func aTrueUnknownIsKeptUnderItsOwnNameAndReported() throws {
        let batch = try HAEReader.read(Self.body([("apple_stand_hour", "count", 9), ("made_up_metric", "count", 1)]))
        #expect(batch.unknownMetrics == ["apple_stand_hour", "made_up_metric"])
        let types = batch.records.compactMap { record -> String? in
            guard case .sample(let sample) = record else { return nil }
            return sample.type.identifier
        }
        #expect(types == ["HAE:apple_stand_hour", "HAE:made_up_metric"])
    }
}
