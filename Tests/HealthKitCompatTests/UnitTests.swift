import Foundation
import HealthCore
import HealthKitCompat
import Testing

@Suite struct UnitTests {
    /// Every unit string of the fixtures, FORMATS.md and our unit catalog.
    static let strings = [
        "count", "count/min", "ms", "kcal", "Cal", "kJ", "kg", "lb", "g", "%", "mg/dL", "mmol<180.1558800000541>/L",
        "mmHg", "degC", "degF", "km", "mi", "m", "cm", "ft", "in", "min", "hr", "s", "dBASPL", "dBHL", "mL/(kg·min)",
        "mL/min·kg", "mi/hr", "kcal/hr·kg", "mg", "mcg", "oz", "st", "mm", "yd", "cal", "J", "d", "count/s", "Hz", "K",
        "cmAq", "inHg", "L", "mL", "fl_oz_us", "fl_oz_imp", "cup_us", "m/s", "km/hr", "m/hr", "mcS", "S", "IU", "lx",
    ]

    @Test func parsesEveryUnitStringAndConvertsAsOurCatalogDoes() throws {
        for string in Self.strings {
            let unit = try HKUnit(validating: string)
            #expect(!unit.isNull(), "\(string)")
            // Same conversions as the catalog the pipeline uses, to the last digit.
            guard let ours = try? HealthUnit(parsing: string) else { continue }
            for other in Self.strings where other != string {
                guard let target = try? HealthUnit(parsing: other), target.dimension == ours.dimension,
                    let expected = try? ours.convert(7.25, to: target)
                else { continue }
                let hk = try HKUnit(validating: other)
                #expect(unit.isCompatible(with: hk), "\(string) → \(other)")
                let got = HKQuantity(unit: unit, doubleValue: 7.25).doubleValue(for: hk)
                #expect(abs(got - expected) <= 1e-12 * abs(expected), "\(string) → \(other): \(got) vs \(expected)")
            }
        }
    }

    @Test func exactConversions() {
        #expect(HKQuantity(unit: .pound(), doubleValue: 150).doubleValue(for: .gramUnit(with: .kilo)) == 68.0388555)
        #expect(HKQuantity(unit: .kilocalorie(), doubleValue: 1).doubleValue(for: .jouleUnit(with: .kilo)) == 4.184)
        #expect(HKQuantity(unit: .mile(), doubleValue: 1).doubleValue(for: .meter()) == 1609.344)
        #expect(HKQuantity(unit: .degreeFahrenheit(), doubleValue: 212).doubleValue(for: .degreeCelsius()) == 100)
        #expect(HKQuantity(unit: .degreeCelsius(), doubleValue: 37).doubleValue(for: .kelvin()) == 310.15)
        let glucose = HKUnit(from: "mmol<180.1558800000541>/L")
        let mgdl = HKUnit.gramUnit(with: .milli).unitDivided(by: .literUnit(with: .deci))
        #expect(abs(HKQuantity(unit: glucose, doubleValue: 5.5).doubleValue(for: mgdl) - 99.085734) < 1e-9)
        #expect(
            HKQuantity(unit: .count().unitDivided(by: .second()), doubleValue: 1).doubleValue(for: HKUnit(from: "count/min"))
                == 60)
    }

    @Test func factoriesSpellUnitsAsHealthKit() {
        #expect(HKUnit.count().unitDivided(by: .minute()).unitString == "count/min")
        #expect(HKUnit.gramUnit(with: .milli).unitDivided(by: .literUnit(with: .deci)).unitString == "mg/dL")
        #expect(HKUnit.gramUnit(with: .kilo).unitString == "kg")
        #expect(HKUnit.kilocalorie().unitString == "kcal")
        #expect(HKUnit.secondUnit(with: .milli).unitString == "ms")
        #expect(HKUnit(from: "mL/(kg·min)") == HKUnit(from: "mL/min·kg"))
        #expect(HKUnit(from: "mL/(kg*min)").unitString == "mL/kg·min")
        #expect(HKUnit(from: "m^2") == HKUnit.meter().unitMultiplied(by: .meter()))
        #expect(!HKUnit.count().isCompatible(with: .percent()))
        #expect(!HKUnit(from: "mg/dL").isCompatible(with: HKUnit(from: "mmol/L")))
    }

    @Test func malformedStringsThrowSayingWhere() {
        let cases: [(String, String)] = [
            ("", "an empty string is not a unit"), ("count/", "a unit is missing at the end"),
            ("furlong", "unknown unit 'furlong'"), ("mL/(kg·min", "missing ')'"), ("m^x", "'^' must be followed"),
            ("mmol<abc>/L", "a molar mass is a positive number"), ("kg<3>", "'<' follows only 'mol'"),
            ("count min", "unexpected ' '"),
        ]
        for (string, reason) in cases {
            #expect {
                _ = try HKUnit(validating: string)
            } throws: { error in
                "\(error)".contains(reason) && "\(error)".contains("'\(string)'")
            }
        }
    }
}
