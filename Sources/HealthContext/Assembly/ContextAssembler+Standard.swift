import Foundation
import HealthCore
import HealthDaily

extension ContextAssembler {
    /// The assembler with every provider: vitals, activity today, last night's sleep, body
    /// measurements and the last meal from `store`; the daily log, planned workouts and coach
    /// interactions from `appData`; the weather from `weather` at `location`.
    ///
    /// Providers that read a `withheld` kind of data are not asked: their fields stay empty,
    /// with "not permitted" as the reason.
    public static func standard(
        store: any HealthQuerying, appData: any AppDataRepository, weather: any WeatherProviding,
        location: GeoLocation?, configuration: Configuration = Configuration(), withheld: Set<HealthDataCategory> = []
    ) -> ContextAssembler {
        let providers: [any ContextProvider] = [
            DailyLogProvider(repository: appData),
            WeatherContextProvider(client: weather, location: location),
            VitalsProvider(store: store),
            ActivityTodayProvider(store: store, version: configuration.daily.version, withheld: withheld),
            LastNightSleepProvider(store: store, configuration: configuration.daily),
            BodyMeasurementsProvider(store: store),
            AppContextProvider(repository: appData, withheld: withheld),
            LastMealProvider(store: store),
        ]
        return ContextAssembler(
            store: store, configuration: configuration,
            providers: providers.map { provider in
                let needed = readCategories[provider.name] ?? []
                let missing = needed.intersection(withheld)
                // Activity withholds figure by figure (its kinds are several), the app its
                // workouts (the coach's interactions are no kind of data); a provider none of
                // whose kinds may be read is not asked at all.
                if provider is ActivityTodayProvider, missing != needed { return provider }
                if provider is AppContextProvider { return provider }
                return missing.isEmpty ? provider : WithheldProvider(withholding: provider, missing: missing)
            })
    }

    /// The kinds of health data each standard provider reads (the weather reads none). The
    /// daily log's mood, stress and energy are `other` ("everything else"), the app's workout
    /// in progress and planned workouts `workouts`: a steps-only coach read a person's mood
    /// and the name of their next appointment.
    public static let readCategories: [String: Set<HealthDataCategory>] = [
        "vitals": [.heart], "activity": [.steps, .energy, .activity], "sleep": [.sleep], "body": [.body],
        "meals": [.other], "daily-log": [.other], "app": [.workouts],
    ]
}

/// A provider whose data the reader may not see: it reads nothing and gives each of its
/// fields the reason.
struct WithheldProvider: ContextProvider {
    let name: String
    let fields: [ContextField]
    let reason: String

    init(withholding provider: any ContextProvider, missing: Set<HealthDataCategory>) {
        name = provider.name
        fields = provider.fields
        reason = Self.reason(missing)
    }

    /// "not permitted: energy, steps not granted to this reader".
    static func reason(_ missing: Set<HealthDataCategory>) -> String {
        "not permitted: \(missing.sorted().map(\.rawValue).joined(separator: ", ")) not granted to this reader"
    }

    func provide(for request: ContextRequest) async throws -> ContextContribution {
        var contribution = ContextContribution()
        for field in fields { contribution.reasons[field] = reason }
        return contribution
    }
}
