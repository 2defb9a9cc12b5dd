import Foundation
import HealthContext
import HealthCore
import HealthDaily
import HealthWeather
import Testing

/// A failing or slow provider never fails the snapshot, and deadlines hold.
@Suite struct AssemblerTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the daily log table is locked" }
    }

    /// A provider that fails, or answers after `delay` seconds whatever cancellation says.
    struct Misbehaving: ContextProvider {
        var name = "daily-log"
        var fields: [ContextField] = [.subjectiveEnergyLevel, .subjectiveMood, .subjectiveStress]
        var delay: Double?

        func provide(for request: ContextRequest) async throws -> ContextContribution {
            guard let delay else { throw Broken() }
            // Not cooperative: a continuation resumed later by a timer, blind to cancellation.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { continuation.resume() }
            }
            var result = ContextContribution()
            result.values.subjectiveEnergyLevel = 5
            return result
        }
    }

    static func assembler(_ providers: [any ContextProvider], timeout: Double) async throws -> ContextAssembler {
        let (store, _) = try await ContextFixture.inMemory()
        var configuration = SnapshotTests.configuration()
        configuration.providerTimeout = timeout
        configuration.timeouts = ["vitals": 20, "sleep": 20]
        return ContextAssembler(
            store: store, configuration: configuration,
            providers: providers + [
                VitalsProvider(store: store), LastNightSleepProvider(store: store, configuration: configuration.daily),
            ])
    }

    @Test func aFailingProviderLeavesItsFieldsEmptyWithTheReason() async throws {
        let snapshot = try await Self.assembler([Misbehaving()], timeout: 30).assemble(at: ContextFixture.instant)
        #expect(snapshot.subjectiveEnergyLevel == nil)
        #expect(snapshot.restingHeartRateBPM == 54)
        #expect(snapshot.lastNightSleepDurationHours == 7.25)
        let reasons = snapshot.missing.filter { $0.provider == "daily-log" }
        #expect(reasons.map(\.field) == ["subjective_energy_level", "subjective_mood", "subjective_stress"])
        #expect(reasons.allSatisfy { $0.reason == "failed: the daily log table is locked" })
    }

    @Test func aProviderThatIgnoresCancellationStillMeetsItsDeadline() async throws {
        let assembler = try await Self.assembler([Misbehaving(delay: 60)], timeout: 0.3)
        let clock = ContinuousClock()
        var snapshot: HealthContextSnapshot?
        let elapsed = await clock.measure { snapshot = await assembler.assemble(at: ContextFixture.instant) }
        // Cut off long before the provider's 60 s. (Wall-time bounds are loose on purpose: the
        // whole suite shares two cores and one cooperative pool with CPU-heavy import tests;
        // the 2 s acceptance figure is measured on the command in docs/context.md.)
        #expect(elapsed < .seconds(20), "took \(elapsed)")
        #expect(snapshot?.subjectiveEnergyLevel == nil)
        #expect(snapshot?.restingHeartRateBPM == 54)
        #expect(snapshot?.missing.first { $0.field == "subjective_mood" }?.reason == "timed out after 0.3 s")
    }

    @Test func aProviderWithinItsDeadlineIsUsed() async throws {
        let snapshot = try await Self.assembler([Misbehaving(delay: 0.05)], timeout: 30).assemble(at: ContextFixture.instant)
        #expect(snapshot.subjectiveEnergyLevel == 5)
        #expect(snapshot.missing.first { $0.field == "subjective_mood" }?.reason == "no value")
    }

    /// The acceptance case: the real Open-Meteo client against a server that answers after a
    /// minute, refuses, or fails. The snapshot comes back at the weather deadline with every
    /// health field filled (alone, about 1.0 s; the bound here allows for a loaded suite).
    /// The 1.0 s deadline itself is exercised by the hanging server.
    @Test(arguments: ["hanging", "refusing", "failing"])
    func weatherDownStillGivesASnapshotInUnderTwoSeconds(_ mode: String) async throws {
        let server = try LoopbackHTTPServer { _ in
            mode == "failing"
                ? .init(status: 503, body: Data("{}".utf8)) : .init(body: ContextFixture.recordedForecast, delay: 10)
        }
        defer { server.stop() }
        var weather = OpenMeteoClient.Configuration()
        // A refused connection: a port nothing listens on (the server's, once stopped).
        if mode == "refusing" { server.stop() }
        weather.baseURL = server.baseURL
        let (store, app) = try await ContextFixture.inMemory()
        var configuration = ContextAssembler.Configuration()
        configuration.daily.homeZone = TimeZone(identifier: "UTC")!
        configuration.providerTimeout = 20  // the weather keeps its default 1.0 s…
        configuration.dayTimeout = 20
        if mode != "hanging" {
            // …except where the failure's own reason is asserted: a loaded test process can
            // take longer than 1.0 s to see even a refused connection.
            configuration.timeouts["weather"] = 15
            weather.timeout = 15
        }
        let assembler = ContextAssembler.standard(
            store: store, appData: app, weather: OpenMeteoClient(configuration: weather), location: SnapshotTests.berlin,
            configuration: configuration)
        let clock = ContinuousClock()
        var result: HealthContextSnapshot?
        let elapsed = await clock.measure { result = await assembler.assemble(at: ContextFixture.instant) }
        let snapshot = try #require(result)
        #expect(elapsed < .seconds(20), "took \(elapsed)")
        var expected = ContextFixture.expected
        expected.currentWeatherCondition = nil
        expected.currentTemperatureCelsius = nil
        #expect(snapshot.values == expected)
        #expect(snapshot.missing.map(\.field) == ["current_weather_condition", "current_temperature_celsius"])
        let reason = try #require(snapshot.missing.first?.reason)
        switch mode {
        case "hanging":
            #expect(reason == "timed out after 1.0 s" || reason == "failed: Open-Meteo did not answer within 1.0 s")
        case "refusing": #expect(reason == "failed: Open-Meteo could not be reached (connection refused)")
        default: #expect(reason == "failed: Open-Meteo answered HTTP 503")
        }
    }
}
