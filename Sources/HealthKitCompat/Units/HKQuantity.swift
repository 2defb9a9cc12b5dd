#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// HealthKit's `HKQuantity`: a number in a unit, read in any compatible unit.
    ///
    /// ```swift
    /// let weight = HKQuantity(unit: .pound(), doubleValue: 150)
    /// weight.doubleValue(for: .gramUnit(with: .kilo))   // 68.0388555
    /// ```
    public final class HKQuantity: NSObject, @unchecked Sendable {
        let unit: HKUnit
        let value: Double

        public init(unit: HKUnit, doubleValue value: Double) {
            self.unit = unit
            self.value = value
            super.init()
        }

        /// `true` when the quantity can be read in `unit`.
        public func `is`(compatibleWith unit: HKUnit) -> Bool { self.unit.isCompatible(with: unit) }

        /// The value in `unit`. An incompatible unit is a programming error and stops the
        /// program, as HealthKit's exception does: ask ``is(compatibleWith:)`` first.
        public func doubleValue(for unit: HKUnit) -> Double {
            precondition(
                self.unit.isCompatible(with: unit),
                "HKQuantity.doubleValue(for:): '\(unit.unitString)' is not compatible with '\(self.unit.unitString)'")
            return self.unit.convert(value, to: unit)
        }

        /// Orders two compatible quantities.
        public func compare(_ quantity: HKQuantity) -> ComparisonResult {
            let other = quantity.doubleValue(for: unit)
            return value < other ? .orderedAscending : value > other ? .orderedDescending : .orderedSame
        }

        public override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? HKQuantity, other.is(compatibleWith: unit) else { return false }
            return compare(other) == .orderedSame
        }

        public override var hash: Int { unit.dimension.hashValue }

        public override var description: String { "\(SampleValue.format(value)) \(unit.unitString)" }
    }
#endif
