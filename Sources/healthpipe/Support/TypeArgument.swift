import ArgumentParser
import HealthCore

/// `--type`: a short name (`steps`, `heart_rate`, `sleep`) or a HealthKit identifier, from
/// the one table every way in reads (``SampleTypeNames``); a type the store holds beyond the
/// table is named by the store. Anything else is a usage error naming the closest names.
enum TypeArgument {
    static let help =
        "The type: a short name (steps, heart_rate, sleep…) or a HealthKit identifier (HKQuantityTypeIdentifierStepCount)."

    /// The type `name` names, also among `storedTypes`.
    static func resolve(_ name: String, storedTypes: [SampleType]) throws -> SampleType {
        do {
            return try SampleTypeNames.type(named: name, storedTypes: storedTypes)
        } catch let error as UnknownSampleTypeName {
            throw ValidationError(error.description)
        }
    }

    /// The type `name` names in `store`.
    static func resolve(_ name: String, in store: any HealthQuerying) async throws -> SampleType {
        do {
            return try await SampleTypeNames.type(named: name) { try await store.sampleInventory().map(\.type) }
        } catch let error as UnknownSampleTypeName {
            throw ValidationError(error.description)
        }
    }
}
