/// A HealthKit unit with an exact conversion to the base unit of its dimension.
///
/// The scale is a ratio of two exactly representable numbers, and a conversion multiplies
/// by one combined ratio, so that decimal definitions stay exact:
/// `base = (value + offset) × numerator / denominator` (the offset is for temperatures).
///
/// ```swift
/// try HealthUnit.convert(150, from: "lb", to: "kg")        // 68.0388555
/// try HealthUnit.convert(5.5, from: "mmol/L", to: "mg/dL") // 99.0858
/// ```
public struct HealthUnit: Hashable, Sendable {
    /// The symbol as HealthKit and the export write it.
    public let symbol: String
    public let dimension: Dimension
    public let numerator: Double
    public let denominator: Double
    /// Added to a value in this unit before scaling (temperatures only).
    public let offset: Double

    public init(symbol: String, dimension: Dimension, numerator: Double, denominator: Double = 1, offset: Double = 0) {
        self.symbol = symbol
        self.dimension = dimension
        self.numerator = numerator
        self.denominator = denominator
        self.offset = offset
    }

    /// Physical dimensions, each with the base unit named in its comment.
    public enum Dimension: String, Sendable, CaseIterable {
        case count  // count
        case mass  // kg
        case length  // m
        case energy  // kcal
        case time  // s
        case frequency  // count/min
        case temperature  // degC
        case pressure  // mmHg
        case glucose  // mg/dL
        case volume  // L
        case speed  // m/s
        case fraction  // 0–1 (`%` in HealthKit is a fraction: body fat 0.21, SpO2 0.97)
        case soundLevel  // dBASPL
        case hearingLevel  // dBHL
        case vo2Max  // mL/(kg·min)
        case met  // kcal/hr·kg
        case conductance  // mcS
        case pharmacology  // IU
        case illuminance  // lx
    }

    /// Converts `value` from one unit to another of the same dimension.
    public func convert(_ value: Double, to target: HealthUnit) throws -> Double {
        guard dimension == target.dimension else {
            throw UnitError.incompatible(from: symbol, to: target.symbol)
        }
        if symbol == target.symbol { return value }
        if offset == 0, target.offset == 0 {
            return value * (numerator * target.denominator) / (denominator * target.numerator)
        }
        let base = (value + offset) * numerator / denominator
        return base * target.denominator / target.numerator - target.offset
    }

    /// Converts `value` between two unit symbols.
    public static func convert(_ value: Double, from: String, to: String) throws -> Double {
        try HealthUnit(parsing: from).convert(value, to: HealthUnit(parsing: to))
    }
}

/// A unit that cannot be parsed or converted.
public struct UnitError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case unknown(String)
        case incompatible(String, String)
    }

    private let kind: Kind

    static func unknown(_ symbol: String) -> UnitError { UnitError(kind: .unknown(symbol)) }
    static func incompatible(from: String, to: String) -> UnitError { UnitError(kind: .incompatible(from, to)) }

    public var description: String {
        switch kind {
        case .unknown(let symbol): "unknown unit '\(symbol)'"
        case .incompatible(let from, let to): "cannot convert '\(from)' to '\(to)': different dimensions"
        }
    }
}
