#if !canImport(HealthKit)
    /// The molar mass of glucose HealthKit uses for blood glucose, in g/mol.
    public let HKUnitMolarMassBloodGlucose = 180.15588000005408

    extension HKUnit {
        private static func named(_ symbol: String, _ prefix: HKMetricPrefix = .none) -> HKUnit {
            guard let base = bases[symbol] else { preconditionFailure("no base unit '\(symbol)'") }
            return HKUnit(factors: [Factor(base: base, prefix: prefix, exponent: 1)])
        }

        // Mass
        public static func gram() -> HKUnit { named("g") }
        public static func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { named("g", prefix) }
        public static func ounce() -> HKUnit { named("oz") }
        public static func pound() -> HKUnit { named("lb") }
        public static func stone() -> HKUnit { named("st") }
        public static func moleUnit(with prefix: HKMetricPrefix, molarMass gramsPerMole: Double) -> HKUnit {
            HKUnit(factors: [Factor(base: molar(gramsPerMole, spelled: "\(gramsPerMole)"), prefix: prefix, exponent: 1)])
        }
        public static func moleUnit(withMolarMass gramsPerMole: Double) -> HKUnit {
            moleUnit(with: .none, molarMass: gramsPerMole)
        }

        // Length
        public static func meter() -> HKUnit { named("m") }
        public static func meterUnit(with prefix: HKMetricPrefix) -> HKUnit { named("m", prefix) }
        public static func inch() -> HKUnit { named("in") }
        public static func foot() -> HKUnit { named("ft") }
        public static func yard() -> HKUnit { named("yd") }
        public static func mile() -> HKUnit { named("mi") }

        // Volume
        public static func liter() -> HKUnit { named("L") }
        public static func literUnit(with prefix: HKMetricPrefix) -> HKUnit { named("L", prefix) }
        public static func fluidOunceUS() -> HKUnit { named("fl_oz_us") }
        public static func fluidOunceImperial() -> HKUnit { named("fl_oz_imp") }
        public static func pintUS() -> HKUnit { named("pt_us") }
        public static func pintImperial() -> HKUnit { named("pt_imp") }
        public static func cupUS() -> HKUnit { named("cup_us") }
        public static func cupImperial() -> HKUnit { named("cup_imp") }

        // Pressure
        public static func pascal() -> HKUnit { named("Pa") }
        public static func pascalUnit(with prefix: HKMetricPrefix) -> HKUnit { named("Pa", prefix) }
        public static func millimeterOfMercury() -> HKUnit { named("mmHg") }
        public static func centimeterOfWater() -> HKUnit { named("cmAq") }
        public static func atmosphere() -> HKUnit { named("atm") }
        public static func inchesOfMercury() -> HKUnit { named("inHg") }

        // Time
        public static func second() -> HKUnit { named("s") }
        public static func secondUnit(with prefix: HKMetricPrefix) -> HKUnit { named("s", prefix) }
        public static func minute() -> HKUnit { named("min") }
        public static func hour() -> HKUnit { named("hr") }
        public static func day() -> HKUnit { named("d") }

        // Energy and power
        public static func joule() -> HKUnit { named("J") }
        public static func jouleUnit(with prefix: HKMetricPrefix) -> HKUnit { named("J", prefix) }
        public static func kilocalorie() -> HKUnit { named("cal", .kilo) }
        public static func smallCalorie() -> HKUnit { named("cal") }
        public static func largeCalorie() -> HKUnit { named("Cal") }
        public static func watt() -> HKUnit { named("W") }
        public static func wattUnit(with prefix: HKMetricPrefix) -> HKUnit { named("W", prefix) }

        // Temperature
        public static func kelvin() -> HKUnit { named("K") }
        public static func degreeCelsius() -> HKUnit { named("degC") }
        public static func degreeFahrenheit() -> HKUnit { named("degF") }

        // Others
        public static func count() -> HKUnit { named("count") }
        /// Fractions: HealthKit stores 21 % as 0.21 in this unit.
        public static func percent() -> HKUnit { named("%") }
        public static func hertz() -> HKUnit { named("Hz") }
        public static func hertzUnit(with prefix: HKMetricPrefix) -> HKUnit { named("Hz", prefix) }
        public static func siemen() -> HKUnit { named("S") }
        public static func siemenUnit(with prefix: HKMetricPrefix) -> HKUnit { named("S", prefix) }
        public static func volt() -> HKUnit { named("V") }
        public static func voltUnit(with prefix: HKMetricPrefix) -> HKUnit { named("V", prefix) }
        public static func internationalUnit() -> HKUnit { named("IU") }
        public static func decibelAWeightedSoundPressureLevel() -> HKUnit { named("dBASPL") }
        public static func decibelHearingLevel() -> HKUnit { named("dBHL") }
        public static func lux() -> HKUnit { named("lx") }
        public static func luxUnit(with prefix: HKMetricPrefix) -> HKUnit { named("lx", prefix) }
        public static func radianAngle() -> HKUnit { named("rad") }
        public static func radianAngleUnit(with prefix: HKMetricPrefix) -> HKUnit { named("rad", prefix) }
        public static func degreeAngle() -> HKUnit { named("deg") }
        public static func diopter() -> HKUnit { named("D") }
        public static func appleEffortScore() -> HKUnit { named("appleEffortScore") }
    }
#endif
