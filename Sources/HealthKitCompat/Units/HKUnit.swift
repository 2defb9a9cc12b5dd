#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// HealthKit's `HKUnit`: a unit parsed from HealthKit's unit strings or built with its
    /// factory methods, converted exactly between compatible units.
    ///
    /// ```swift
    /// let bpm = HKUnit.count().unitDivided(by: .minute())   // "count/min"
    /// let glucose = HKUnit(from: "mmol<180.1558800000541>/L")
    /// glucose.is(compatibleWith: HKUnit(from: "mg/dL"))      // true
    /// ```
    ///
    /// Differences from HealthKit (docs/healthkit-compat.md): a malformed string given to
    /// ``init(from:)`` stops the program, as HealthKit's Objective-C exception does; use
    /// ``init(validating:)`` for a Swift error instead.
    public final class HKUnit: NSObject, @unchecked Sendable {
        /// One factor of a unit: a prefixed base unit raised to a power.
        struct Factor: Hashable, Sendable {
            var base: Base
            var prefix: HKMetricPrefix
            var exponent: Int

            var symbol: String { prefix.symbol + base.symbol }
        }

        let factors: [Factor]

        /// The unit string, as HealthKit writes it: numerator factors, `/`, denominator factors,
        /// each product joined by `·`.
        public let unitString: String

        init(factors: [Factor]) {
            var merged: [Factor] = []
            for factor in factors {
                if let index = merged.firstIndex(where: { $0.base == factor.base && $0.prefix == factor.prefix }) {
                    merged[index].exponent += factor.exponent
                } else {
                    merged.append(factor)
                }
            }
            self.factors = merged.filter { $0.exponent != 0 }
            self.unitString = HKUnit.spell(self.factors)
            self.dimension = HKUnit.dimension(of: self.factors)
            self.scale = HKUnit.scale(of: self.factors)
            super.init()
        }

        /// Parses a HealthKit unit string (`count/min`, `mg/dL`, `mL/(kg·min)`, `kcal/hr·kg`,
        /// `mmol<180.1558800000541>/L`, `m^2`). A malformed string is a programming error and
        /// stops the program with its reason, as HealthKit's exception does.
        public convenience init(from string: String) {
            do {
                try self.init(validating: string)
            } catch {
                preconditionFailure("HKUnit(from:): \(error)")
            }
        }

        /// Parses a unit string, throwing ``HKUnitParseError`` (saying what is wrong and where)
        /// for a malformed one. Only here: HealthKit has no throwing parser.
        public convenience init(validating string: String) throws {
            var parser = HKUnitParser(string)
            self.init(factors: try parser.parse())
        }

        /// The unit of a stored unit string, parsed once per process: a store holds a few
        /// dozen unit strings and reads return thousands of samples. `nil` for a malformed one.
        static func stored(_ symbol: String) -> HKUnit? {
            if let known = storedUnits.withLock({ $0[symbol] }) { return known }
            let unit = try? HKUnit(validating: symbol)
            storedUnits.withLock { units in
                if units.count < 1024 { units[symbol] = unit }
            }
            return unit
        }

        private static let storedUnits = Locked<[String: HKUnit?]>([:])

        private static func spell(_ factors: [Factor]) -> String {
            func term(_ factor: Factor, _ exponent: Int) -> String {
                exponent == 1 ? factor.symbol : "\(factor.symbol)^\(exponent)"
            }
            let numerator = factors.filter { $0.exponent > 0 }.map { term($0, $0.exponent) }
            let denominator = factors.filter { $0.exponent < 0 }.map { term($0, -$0.exponent) }
            let top = numerator.isEmpty ? (denominator.isEmpty ? "" : "1") : numerator.joined(separator: "·")
            return denominator.isEmpty ? top : top + "/" + denominator.joined(separator: "·")
        }

        // MARK: Meaning

        /// The dimension: the exponents of base quantities, zero ones dropped. Worked out
        /// once: every conversion asks for it.
        let dimension: [String: Int]

        /// The size in SI base units, as an exact ratio.
        let scale: (numerator: Double, denominator: Double)

        private static func dimension(of factors: [Factor]) -> [String: Int] {
            var result: [String: Int] = [:]
            for factor in factors {
                for (quantity, power) in factor.base.dimension {
                    result[quantity, default: 0] += power * factor.exponent
                }
            }
            return result.filter { $0.value != 0 }
        }

        private static func scale(of factors: [Factor]) -> (numerator: Double, denominator: Double) {
            var numerator = 1.0
            var denominator = 1.0
            for factor in factors {
                let base = factor.base
                let tens = pow(10, Double(abs(factor.prefix.exponent)))
                var (top, bottom) = (base.numerator, base.denominator)
                if factor.prefix.exponent > 0 { top *= tens } else { bottom *= tens }
                if factor.exponent < 0 { (top, bottom) = (bottom, top) }
                for _ in 0..<abs(factor.exponent) {
                    numerator *= top
                    denominator *= bottom
                }
            }
            return (numerator, denominator)
        }

        /// The offset of a lone temperature unit (degC, degF); 0 otherwise.
        var offset: Double {
            guard factors.count == 1, factors[0].exponent == 1, factors[0].prefix == .none else { return 0 }
            return factors[0].base.offset
        }

        /// `true` when values convert between the two units.
        public func isCompatible(with other: HKUnit) -> Bool { dimension == other.dimension }

        /// `true` for the unit with no factors.
        public func isNull() -> Bool { factors.isEmpty }

        /// `value` in this unit, expressed in `target` (compatible units only).
        func convert(_ value: Double, to target: HKUnit) -> Double {
            if self == target { return value }
            let (fromTop, fromBottom) = scale
            let (toTop, toBottom) = target.scale
            let (fromOffset, toOffset) = (offset, target.offset)
            if fromOffset == 0, toOffset == 0 {
                return value * (fromTop * toBottom) / (fromBottom * toTop)
            }
            let base = (value + fromOffset) * fromTop / fromBottom
            return base * toBottom / toTop - toOffset
        }

        // MARK: Identity

        private var identity: [Factor] {
            factors.sorted { ($0.base.symbol, $0.prefix.rawValue) < ($1.base.symbol, $1.prefix.rawValue) }
        }

        public override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? HKUnit else { return false }
            return identity == other.identity
        }

        public override var hash: Int { identity.hashValue }

        public override var description: String { unitString }

        // MARK: Arithmetic

        public func unitMultiplied(by unit: HKUnit) -> HKUnit {
            HKUnit(factors: factors + unit.factors)
        }

        public func unitDivided(by unit: HKUnit) -> HKUnit { unitMultiplied(by: unit.reciprocal()) }

        public func unitRaised(toPower power: Int) -> HKUnit {
            HKUnit(factors: factors.map { Factor(base: $0.base, prefix: $0.prefix, exponent: $0.exponent * power) })
        }

        public func reciprocal() -> HKUnit { unitRaised(toPower: -1) }
    }

    /// A unit string ``HKUnit/init(validating:)`` could not read: what is wrong and at which
    /// character.
    public struct HKUnitParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The string as given.
        public var string: String
        /// The offset (in characters) where reading stopped.
        public var position: Int
        /// What was expected or found.
        public var reason: String

        public var description: String { "malformed unit string '\(string)' at character \(position + 1): \(reason)" }
    }
#endif
