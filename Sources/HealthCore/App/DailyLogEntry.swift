import Foundation

/// What the user logged about one local day: energy, mood and stress on a 1–5 scale and a
/// free-text note (the AirFit seed's `DailyLog`). Every part is optional; a later entry for
/// the same day updates only the parts it sets (see ``merging(_:)``).
///
/// ```swift
/// let entry = try DailyLogEntry(date: LocalDate("2026-11-21")!, energy: 4, stress: 2)
/// ```
public struct DailyLogEntry: Hashable, Sendable, Codable {
    /// The scale every subjective rating uses.
    public static let scale = 1...5

    public var date: LocalDate
    public var energy: Int?
    public var mood: Int?
    public var stress: Int?
    public var note: String?

    /// Fails with ``DailyLogError`` when a rating is outside ``scale``.
    public init(date: LocalDate, energy: Int? = nil, mood: Int? = nil, stress: Int? = nil, note: String? = nil) throws {
        for (name, value) in [("energy", energy), ("mood", mood), ("stress", stress)] {
            if let value, !Self.scale.contains(value) { throw DailyLogError(field: name) }
        }
        self.date = date
        self.energy = energy
        self.mood = mood
        self.stress = stress
        self.note = note
    }

    /// This entry with the parts `newer` sets replacing these.
    public func merging(_ newer: DailyLogEntry) -> DailyLogEntry {
        var merged = self
        merged.energy = newer.energy ?? energy
        merged.mood = newer.mood ?? mood
        merged.stress = newer.stress ?? stress
        merged.note = newer.note ?? note
        return merged
    }

    /// `true` when nothing is set.
    public var isEmpty: Bool { energy == nil && mood == nil && stress == nil && note == nil }
}

/// A rating outside the 1–5 scale. The description names the field, never the value.
public struct DailyLogError: Error, Hashable, Sendable, CustomStringConvertible {
    public let field: String

    public var description: String {
        "\(field) must be a whole number from \(DailyLogEntry.scale.lowerBound) to \(DailyLogEntry.scale.upperBound)"
    }
}
