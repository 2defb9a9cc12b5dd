import Foundation
import HealthCore
import Testing

/// The units Apple's exports and Health Auto Export write for the types with a plausible
/// range are all units of those types: a unit of another dimension is refused (finding M5 of
/// the release attack), so a unit a real export writes must never be taken for one.
@Suite struct AppleUnitsPlausibleTests {
    static let units: [(String, [String])] = [
        ("StepCount", ["count"]), ("FlightsClimbed", ["count"]), ("PushCount", ["count"]),
        ("SwimmingStrokeCount", ["count"]), ("DistanceWalkingRunning", ["km", "mi", "m"]),
        ("DistanceCycling", ["km", "mi"]), ("DistanceSwimming", ["m", "yd"]), ("DistanceWheelchair", ["km", "mi"]),
        ("DistanceDownhillSnowSports", ["km", "mi"]), ("ActiveEnergyBurned", ["kcal", "Cal", "kJ"]),
        ("BasalEnergyBurned", ["kcal", "Cal", "kJ"]), ("DietaryEnergyConsumed", ["kcal", "Cal", "kJ"]),
        ("AppleExerciseTime", ["min"]), ("AppleStandTime", ["min"]), ("AppleMoveTime", ["min"]),
        ("HeartRate", ["count/min"]), ("RestingHeartRate", ["count/min"]), ("WalkingHeartRateAverage", ["count/min"]),
        ("HeartRateRecoveryOneMinute", ["count/min"]), ("HeartRateVariabilitySDNN", ["ms"]),
        ("RespiratoryRate", ["count/min"]), ("OxygenSaturation", ["%"]), ("BodyFatPercentage", ["%"]),
        ("WalkingAsymmetryPercentage", ["%"]), ("WalkingDoubleSupportPercentage", ["%"]), ("BodyMass", ["kg", "lb"]),
        ("LeanBodyMass", ["kg", "lb"]), ("Height", ["cm", "ft", "in", "m"]), ("WaistCircumference", ["cm", "in"]),
        ("BodyMassIndex", ["count"]), ("BodyTemperature", ["degC", "degF"]), ("BasalBodyTemperature", ["degC", "degF"]),
        ("AppleSleepingWristTemperature", ["degC", "degF"]), ("BloodPressureSystolic", ["mmHg"]),
        ("BloodPressureDiastolic", ["mmHg"]), ("BloodGlucose", ["mg/dL", "mmol<180.1558800000541>/L"]),
        ("VO2Max", ["mL/min·kg", "mL/(kg·min)"]), ("DietaryWater", ["mL", "L", "fl_oz_us"]),
        ("WalkingSpeed", ["km/hr", "mi/hr", "m/s"]), ("RunningSpeed", ["km/hr", "mi/hr", "m/s"]),
        ("WalkingStepLength", ["cm", "in"]), ("SixMinuteWalkTestDistance", ["m"]),
        ("EnvironmentalAudioExposure", ["dBASPL"]), ("HeadphoneAudioExposure", ["dBASPL"]), ("TimeInDaylight", ["min"]),
    ]

    @Test func everyUnitARealExportWritesIsAUnitOfItsType() {
        for (name, units) in Self.units {
            let type = SampleType("HKQuantityTypeIdentifier" + name)
            for unit in units {
                let problem = PlausibleRange.violation(value: 0.5, unit: unit, type: type)
                #expect(problem == nil || !problem!.contains("is not a unit of"), "\(name) in \(unit): \(problem ?? "")")
            }
        }
        #expect(Set(Self.units.map(\.0)) == Set(PlausibleRange.rows.map { String($0.type.identifier.dropFirst(24)) }))
    }
}
