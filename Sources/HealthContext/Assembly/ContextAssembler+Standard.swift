import Foundation
import HealthCore
import HealthDaily

extension ContextAssembler {
    /// The assembler with every provider: vitals, activity today, last night's sleep, body
    /// measurements and the last meal from `store`; the daily log, planned workouts and coach
    /// interactions from `appData`; the weather from `weather` at `location`.
    public static func standard(
        store: any HealthQuerying, appData: any AppDataRepository, weather: any WeatherProviding,
        location: GeoLocation?, configuration: Configuration = Configuration()
    ) -> ContextAssembler {
        ContextAssembler(
            store: store, configuration: configuration,
            providers: [
                DailyLogProvider(repository: appData),
                WeatherContextProvider(client: weather, location: location),
                VitalsProvider(store: store),
                ActivityTodayProvider(store: store, version: configuration.daily.version),
                LastNightSleepProvider(store: store, configuration: configuration.daily),
                BodyMeasurementsProvider(store: store),
                AppContextProvider(repository: appData),
                LastMealProvider(store: store),
            ])
    }
}
