import Foundation
import HealthCore
import HealthDaily

/// Builds a ``HealthContextSnapshot`` from injected providers (the AirFit seed's
/// `ContextAssembler`), asking them all at once, each under its own deadline.
///
/// A provider that throws or misses its deadline never fails the snapshot: its fields stay
/// `nil` and ``HealthContextSnapshot/missing`` says what happened. The deadline holds even
/// for a provider that ignores cancellation, so a snapshot takes at most the longest
/// deadline plus the time to find "today".
///
/// ```swift
/// let assembler = ContextAssembler(store: database.store, configuration: .init(), providers: [
///     VitalsProvider(store: database.store), DailyLogProvider(repository: database.appData),
/// ])
/// let snapshot = await assembler.assemble(at: Date())
/// ```
public struct ContextAssembler: Sendable {
    /// Settings of an assembler.
    public struct Configuration: Sendable {
        /// Zones and rule version, as for the daily metrics.
        public var daily = DailyNormalizer.Configuration()
        /// The deadline of each provider, in seconds.
        public var providerTimeout = 1.5
        /// Deadlines for providers by name, overriding ``providerTimeout``. The weather, a
        /// network call that usually takes a few hundred milliseconds, gets 1 s.
        public var timeouts: [String: Double] = ["weather": 1.0]
        /// The deadline for finding today's zone and bounds in the store.
        public var dayTimeout = 1.0

        public init() {}
    }

    public let store: any HealthQuerying
    public let configuration: Configuration
    public let providers: [any ContextProvider]

    public init(store: any HealthQuerying, configuration: Configuration, providers: [any ContextProvider]) {
        self.store = store
        self.configuration = configuration
        self.providers = providers
    }

    /// The snapshot as of `instant`.
    public func assemble(at instant: Date) async -> HealthContextSnapshot {
        var missing: [HealthContextSnapshot.MissingPart] = []
        let normalizer = DailyNormalizer(store: store, configuration: configuration.daily, now: { instant })
        let day: LocalDay
        do {
            day = try await Deadline.run(seconds: configuration.dayTimeout) {
                try await normalizer.localDay(containing: instant)
            }
        } catch {
            // Without the store's zone evidence, fall back to the configured zone.
            let zone = configuration.daily.explicitZone ?? configuration.daily.homeZone
            day = LocalDay(date: LocalDate(instant, in: zone), zone: zone)
            missing.append(
                .init(field: "timezone", provider: "day", reason: "used \(zone.identifier): \(Self.describe(error))"))
        }
        let request = ContextRequest(instant: instant, day: day)
        // Children return a plain struct (no `Result` with an existential error): a tuple of
        // `(Int, Result<ContextContribution, any Error>)` came back corrupted from task-group
        // children in release builds of Swift 6.3.1.
        let outcomes = await withTaskGroup(of: ProviderOutcome.self) { group in
            for (index, provider) in providers.enumerated() {
                let seconds = configuration.timeouts[provider.name] ?? configuration.providerTimeout
                group.addTask {
                    do {
                        let contribution = try await Deadline.run(seconds: seconds) { try await provider.provide(for: request) }
                        return ProviderOutcome(index: index, contribution: contribution, failure: nil)
                    } catch {
                        return ProviderOutcome(index: index, contribution: nil, failure: Self.describe(error))
                    }
                }
            }
            var outcomes: [ProviderOutcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.index < $1.index }
        }
        var values = ContextValues()
        var reasons: [ContextField: (provider: String, reason: String)] = [:]
        for (provider, outcome) in zip(providers, outcomes) {
            if let contribution = outcome.contribution {
                values.take(provider.fields, from: contribution.values)
                for field in provider.fields where !contribution.values.has(field) {
                    reasons[field] = (provider.name, contribution.reasons[field] ?? "no value")
                }
            } else {
                for field in provider.fields { reasons[field] = (provider.name, outcome.failure ?? "failed") }
            }
        }
        for field in ContextField.allCases where !values.has(field) {
            let (provider, reason) = reasons[field] ?? ("none", "no provider supplies it")
            missing.append(.init(field: field.rawValue, provider: provider, reason: reason))
        }
        return HealthContextSnapshot(timestamp: instant, date: day.date, timezone: day.zone, values: values, missing: missing)
    }

    /// What one provider gave: its contribution, or why there is none.
    private struct ProviderOutcome: Sendable {
        var index: Int
        var contribution: ContextContribution?
        var failure: String?
    }

    private static func describe(_ error: any Error) -> String {
        if let expired = error as? Deadline.Expired { return "timed out after \(expired.seconds) s" }
        return "failed: \(error)"
    }
}
