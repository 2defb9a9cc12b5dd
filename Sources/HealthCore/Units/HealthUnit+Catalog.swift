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
        return HealthUnit(symbol: symbol, dimension: .glucose, scale: grams / 10)
    }

    /// Glucose: 1 mmol/L = 18.0156 mg/dL (molar mass of glucose 180.156 g/mol).
    public static let glucoseMgPerDlPerMmolPerL = 18.0156
    /// 1 lb = 0.45359237 kg exactly (international pound).
    public static let kilogramsPerPound = 0.45359237
    /// 1 kcal = 4.184 kJ exactly (thermochemical calorie).
    public static let kilojoulesPerKilocalorie = 4.184

    static let catalog: [String: HealthUnit] = {
        var units: [String: HealthUnit] = [:]
        func add(_ dimension: Dimension, _ symbol: String, _ scale: Double, offset: Double = 0) {
            units[symbol] = HealthUnit(symbol: symbol, dimension: dimension, scale: scale, offset: offset)
        }
        add(.count, "count", 1)
        add(.mass, "kg", 1)
        add(.mass, "g", 0.001)
        add(.mass, "mg", 1e-6)
        add(.mass, "mcg", 1e-9)
        add(.mass, "lb", kilogramsPerPound)
        add(.mass, "oz", kilogramsPerPound / 16)
        add(.mass, "st", kilogramsPerPound * 14)
        add(.length, "m", 1)
        add(.length, "km", 1000)
        add(.length, "cm", 0.01)
        add(.length, "mm", 0.001)
        add(.length, "in", 0.0254)
        add(.length, "ft", 0.3048)
        add(.length, "yd", 0.9144)
        add(.length, "mi", 1609.344)
        add(.energy, "kcal", 1)
        add(.energy, "Cal", 1)
        add(.energy, "cal", 0.001)
        add(.energy, "kJ", 1 / kilojoulesPerKilocalorie)
        add(.energy, "J", 0.001 / kilojoulesPerKilocalorie)
        add(.time, "s", 1)
        add(.time, "ms", 0.001)
        add(.time, "min", 60)
        add(.time, "hr", 3600)
        add(.time, "d", 86400)
        add(.frequency, "count/min", 1)
        add(.frequency, "count/s", 60)
        add(.frequency, "Hz", 60)
        add(.temperature, "degC", 1)
        add(.temperature, "degF", 5.0 / 9.0, offset: -32 * 5.0 / 9.0)
        add(.temperature, "K", 1, offset: -273.15)
        add(.pressure, "mmHg", 1)
        add(.pressure, "cmAq", 0.73555912)
        add(.pressure, "inHg", 25.4)
        add(.glucose, "mg/dL", 1)
        add(.glucose, "mmol/L", glucoseMgPerDlPerMmolPerL)
        add(.volume, "L", 1)
        add(.volume, "mL", 0.001)
        add(.volume, "fl_oz_us", 0.0295735295625)
        add(.volume, "fl_oz_imp", 0.0284130625)
        add(.volume, "cup_us", 0.2365882365)
        add(.speed, "m/s", 1)
        add(.speed, "km/hr", 1000.0 / 3600.0)
        add(.speed, "mi/hr", 1609.344 / 3600.0)
        add(.speed, "m/hr", 1.0 / 3600.0)
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
