extension HealthUnit {
    /// Parses a HealthKit unit string, including molar glucose units that carry their molar
    /// mass (`mmol<180.1558800000541>/L`). Throws for an unknown symbol.
    public init(parsing symbol: String) throws {
        if let known = HealthUnit.catalog[symbol] {
            self = known
            return
        }
        if let molar = HealthUnit.molarConcentration(symbol) {
            self = molar
            return
        }
        throw UnitError.unknown(symbol)
    }

    /// Glucose in `mmol<M>/L`: 1 mmol/L = M / 10 mg/dL (M in g/mol).
    private static func molarConcentration(_ symbol: String) -> HealthUnit? {
        guard symbol.hasPrefix("mmol<"), symbol.hasSuffix(">/L") else { return nil }
        let mass = symbol.dropFirst("mmol<".count).dropLast(">/L".count)
        guard let grams = Double(mass), grams > 0 else { return nil }
        return HealthUnit(symbol: symbol, dimension: .glucose, numerator: grams, denominator: 10)
    }

    /// Glucose: 1 mmol/L = 18.0156 mg/dL (molar mass of glucose 180.156 g/mol).
    public static let glucoseMgPerDlPerMmolPerL = 18.0156
    /// 1 lb = 0.45359237 kg exactly (international pound).
    public static let kilogramsPerPound = 0.45359237
    /// 1 kcal = 4.184 kJ exactly (thermochemical calorie).
    public static let kilojoulesPerKilocalorie = 4.184

    static let catalog: [String: HealthUnit] = {
        var units: [String: HealthUnit] = [:]
        func add(_ dimension: Dimension, _ symbol: String, _ numerator: Double, _ denominator: Double = 1, offset: Double = 0) {
            units[symbol] = HealthUnit(
                symbol: symbol, dimension: dimension, numerator: numerator, denominator: denominator, offset: offset)
        }
        add(.count, "count", 1)
        add(.mass, "kg", 1)
        add(.mass, "g", 1, 1e3)
        add(.mass, "mg", 1, 1e6)
        add(.mass, "mcg", 1, 1e9)
        add(.mass, "lb", 45_359_237, 1e8)  // 0.45359237 kg
        add(.mass, "oz", 45_359_237, 16e8)
        add(.mass, "st", 635_029_318, 1e8)  // 14 lb
        add(.length, "m", 1)
        add(.length, "km", 1000)
        add(.length, "cm", 1, 100)
        add(.length, "mm", 1, 1000)
        add(.length, "in", 254, 1e4)
        add(.length, "ft", 3048, 1e4)
        add(.length, "yd", 9144, 1e4)
        add(.length, "mi", 1_609_344, 1e3)
        add(.energy, "kcal", 1)
        add(.energy, "Cal", 1)
        add(.energy, "cal", 1, 1e3)
        add(.energy, "kJ", 1000, 4184)  // 1 kcal = 4.184 kJ
        add(.energy, "J", 1, 4184)
        add(.time, "s", 1)
        add(.time, "ms", 1, 1e3)
        add(.time, "min", 60)
        add(.time, "hr", 3600)
        add(.time, "d", 86400)
        add(.frequency, "count/min", 1)
        add(.frequency, "count/s", 60)
        add(.frequency, "Hz", 60)
        add(.temperature, "degC", 1)
        add(.temperature, "degF", 5, 9, offset: -32)
        add(.temperature, "K", 1, offset: -273.15)
        add(.pressure, "mmHg", 1)
        add(.pressure, "cmAq", 98_066_500_000, 133_322_387_415)  // 98.0665 Pa exactly, in mmHg
        add(.pressure, "inHg", 254, 10)
        add(.glucose, "mg/dL", 1)
        add(.glucose, "mmol/L", 180_156, 1e4)  // 18.0156 mg/dL
        add(.volume, "L", 1)
        add(.volume, "mL", 1, 1e3)
        add(.volume, "fl_oz_us", 295_735_295_625, 1e13)
        add(.volume, "fl_oz_imp", 284_130_625, 1e10)
        add(.volume, "cup_us", 2_365_882_365, 1e10)
        add(.speed, "m/s", 1)
        add(.speed, "km/hr", 1000, 3600)
        add(.speed, "mi/hr", 1_609_344, 3_600_000)
        add(.speed, "m/hr", 1, 3600)
        add(.fraction, "%", 1)
        add(.soundLevel, "dBASPL", 1)
        add(.hearingLevel, "dBHL", 1)
        add(.vo2Max, "mL/(kg·min)", 1)
        add(.vo2Max, "mL/min·kg", 1)
        add(.met, "kcal/hr·kg", 1)
        add(.conductance, "mcS", 1)
        add(.conductance, "S", 1e6)
        add(.pharmacology, "IU", 1)
        add(.illuminance, "lx", 1)
        return units
    }()
}
