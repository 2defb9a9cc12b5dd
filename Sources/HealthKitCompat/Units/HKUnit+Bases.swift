#if !canImport(HealthKit)
    import Foundation

    extension HKUnit {
        /// A named unit a unit string is built from: its dimension (exponents of base
        /// quantities), its size in SI base units as an exact ratio, and whether it takes
        /// SI prefixes.
        struct Base: Hashable, Sendable {
            var symbol: String
            var dimension: [String: Int]
            var numerator: Double
            var denominator: Double
            var prefixable: Bool
            /// Added (in the unit) before scaling, for a lone temperature unit: offsets are taken
            /// from degrees Celsius, so that 212 degF reads exactly 100 degC.
            var offset: Double = 0
        }

        /// HealthKit's unit symbols. Sizes are exact where their definitions are (the pound,
        /// the inch, the US fluid ounce, the thermochemical calorie, mmHg…).
        static let bases: [String: Base] = {
            var table: [String: Base] = [:]
            func add(
                _ symbol: String, _ dimension: [String: Int], _ numerator: Double, _ denominator: Double = 1,
                prefixable: Bool = false, offset: Double = 0
            ) {
                table[symbol] = Base(
                    symbol: symbol, dimension: dimension, numerator: numerator, denominator: denominator,
                    prefixable: prefixable, offset: offset)
            }
            let mass = ["mass": 1]
            let length = ["length": 1]
            let volume = ["length": 3]
            let time = ["time": 1]
            let energy = ["mass": 1, "length": 2, "time": -2]
            let pressure = ["mass": 1, "length": -1, "time": -2]
            let temperature = ["temperature": 1]
            add("g", mass, 1, 1e3, prefixable: true)
            add("oz", mass, 45_359_237, 16e8)
            add("lb", mass, 45_359_237, 1e8)
            add("st", mass, 635_029_318, 1e8)
            add("m", length, 1, prefixable: true)
            add("in", length, 254, 1e4)
            add("ft", length, 3048, 1e4)
            add("yd", length, 9144, 1e4)
            add("mi", length, 1_609_344, 1e3)
            add("L", volume, 1, 1e3, prefixable: true)
            add("fl_oz_us", volume, 295_735_295_625, 1e16)
            add("fl_oz_imp", volume, 284_130_625, 1e13)
            add("cup_us", volume, 2_365_882_365, 1e13)
            add("cup_imp", volume, 284_130_625, 1e12)
            add("pt_us", volume, 473_176_473, 1e12)
            add("pt_imp", volume, 56_826_125, 1e11)
            add("s", time, 1, prefixable: true)
            add("min", time, 60)
            add("hr", time, 3600)
            add("d", time, 86400)
            add("Hz", ["time": -1], 1, prefixable: true)
            add("J", energy, 1, prefixable: true)
            add("cal", energy, 4184, 1e3, prefixable: true)
            add("Cal", energy, 4184)
            add("W", ["mass": 1, "length": 2, "time": -3], 1, prefixable: true)
            add("Pa", pressure, 1, prefixable: true)
            add("mmHg", pressure, 133_322_387_415, 1e9)
            add("cmAq", pressure, 980_665, 1e4)
            add("atm", pressure, 101_325)
            add("inHg", pressure, 33_863_886_403_410, 1e10)  // 25.4 mmHg
            add("K", temperature, 1, prefixable: true, offset: -273.15)
            add("degC", temperature, 1)
            add("degF", temperature, 5, 9, offset: -32)
            add("count", [:], 1)
            add("%", ["fraction": 1], 1)
            add("dBASPL", ["soundPressureLevel": 1], 1)
            add("dBHL", ["hearingLevel": 1], 1)
            add("IU", ["internationalUnit": 1], 1)
            add("lx", ["illuminance": 1], 1, prefixable: true)
            add("S", ["conductance": 1], 1, prefixable: true)
            add("V", ["voltage": 1], 1, prefixable: true)
            add("rad", ["angle": 1], 1, prefixable: true)
            add("deg", ["angle": 1], Double.pi, 180)
            add("D", ["length": -1], 1)
            add("appleEffortScore", ["appleEffortScore": 1], 1)
            add("mol", ["amountOfSubstance": 1], 1, prefixable: true)
            return table
        }()

        /// `mol<M>`: moles of a substance of molar mass `M` g/mol, a mass (M/1000 kg per mole).
        static func molar(_ grams: Double, spelled text: String) -> Base {
            Base(symbol: "mol<\(text)>", dimension: ["mass": 1], numerator: grams, denominator: 1e3, prefixable: true)
        }
    }
#endif
