import Testing

@testable import HealthCore

@Suite struct UnitConversionTests {
    @Test func poundsAndKilogramsUseTheExactInternationalPound() throws {
        #expect(try HealthUnit.convert(1, from: "lb", to: "kg") == 0.45359237)
        #expect(try HealthUnit.convert(150, from: "lb", to: "kg") == 68.0388555)
        #expect(try HealthUnit.convert(0.45359237, from: "kg", to: "lb") == 1)
        #expect(try HealthUnit.convert(1, from: "st", to: "lb") == 14)
    }

    @Test func glucoseMillimolesToMilligramsPerDecilitre() throws {
        #expect(try HealthUnit.convert(1, from: "mmol/L", to: "mg/dL") == 18.0156)
        #expect(try HealthUnit.convert(5.5, from: "mmol/L", to: "mg/dL") == 99.0858)
        #expect(abs(try HealthUnit.convert(99.0858, from: "mg/dL", to: "mmol/L") - 5.5) < 1e-12)
        // The export's own spelling carries the molar mass: 180.15588 g/mol → 18.015588 mg/dL.
        let molar = try HealthUnit.convert(1, from: "mmol<180.1558800000541>/L", to: "mg/dL")
        #expect(abs(molar - 18.01558800000541) < 1e-12)
    }

    @Test func energyUnits() throws {
        #expect(try HealthUnit.convert(1, from: "Cal", to: "kcal") == 1)
        #expect(try HealthUnit.convert(4.184, from: "kJ", to: "kcal") == 1)
        #expect(try HealthUnit.convert(1000, from: "cal", to: "kcal") == 1)
    }

    @Test func temperatureIsAffine() throws {
        #expect(try HealthUnit.convert(212, from: "degF", to: "degC") == 100)
        #expect(try HealthUnit.convert(37, from: "degC", to: "degF") == 98.6)
        #expect(try HealthUnit.convert(0, from: "K", to: "degC") == -273.15)
    }

    @Test func lengthTimeAndSpeed() throws {
        #expect(try HealthUnit.convert(1, from: "mi", to: "km") == 1.609344)
        #expect(try HealthUnit.convert(12, from: "in", to: "ft") == 1)
        #expect(try HealthUnit.convert(90, from: "min", to: "hr") == 1.5)
        #expect(try HealthUnit.convert(3.6, from: "km/hr", to: "m/s") == 1)
    }

    @Test func percentIsAFraction() throws {
        let unit = try HealthUnit(parsing: "%")
        #expect(unit.dimension == .fraction)
        #expect(try unit.convert(0.21, to: unit) == 0.21)
    }

    @Test func incompatibleAndUnknownUnitsThrowWithTheirNames() {
        #expect(throws: UnitError.self) { try HealthUnit.convert(1, from: "kg", to: "km") }
        do {
            _ = try HealthUnit(parsing: "furlong")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "unknown unit 'furlong'")
        }
    }
}
