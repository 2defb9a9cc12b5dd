import Foundation
import HealthCore

/// Subjective energy, mood and stress from today's daily log (`healthpipe log`).
public struct DailyLogProvider: ContextProvider {
    public let repository: any AppDataRepository

    public init(repository: any AppDataRepository) { self.repository = repository }

    public var name: String { "daily-log" }
    public var fields: [ContextField] { [.subjectiveEnergyLevel, .subjectiveMood, .subjectiveStress] }

    public func provide(for request: ContextRequest) async throws -> ContextContribution {
        let entry = try await repository.dailyLog(on: request.day.date)
        var result = ContextContribution()
        let reason = "not logged for \(request.day.date)"
        result.values.subjectiveEnergyLevel = result.note(entry?.energy, .subjectiveEnergyLevel, otherwise: reason)
        result.values.subjectiveMood = result.note(entry?.mood, .subjectiveMood, otherwise: reason)
        result.values.subjectiveStress = result.note(entry?.stress, .subjectiveStress, otherwise: reason)
        return result
    }
}
