import Foundation
import HealthMetrics

/// A day as the server's tables hold it: one column per value, instants as seconds since
/// 1970 (exact in a double), the steps and sleep sources as JSON text. Both stores read and write
/// days through this one mapping.
package struct DailyMetricsColumns: Equatable, Sendable {
    package var localDate: String
    package var normalizationVersion: String
    package var timezone: String
    package var utcDayStart: Double
    package var utcDayEnd: Double
    package var stepsNormalized: Int?
    package var stepsRawSum: Int?
    package var stepsSourcesJSON: String?
    package var activeEnergyKcal: Double?
    package var sleepHours: Double?
    package var sleepSourceJSON: String?
    package var restingHRBpm: Double?
    package var hrvMs: Double?
    /// When the payload was computed: not part of what a day holds, so an upsert that
    /// differs only here leaves the row alone.
    package var createdAt: Double

    package init(_ day: NormalizedDailyMetrics, encoder: JSONEncoder) throws {
        localDate = day.localDate
        normalizationVersion = day.normalizationVersion
        timezone = day.timezoneIdentifier
        utcDayStart = day.utcDayStart.timeIntervalSince1970
        utcDayEnd = day.utcDayEnd.timeIntervalSince1970
        stepsNormalized = day.stepsNormalized
        stepsRawSum = day.stepsRawSum
        stepsSourcesJSON = try day.stepsSources.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        activeEnergyKcal = day.activeEnergyKcal
        sleepHours = day.sleepHours
        sleepSourceJSON = try day.sleepSource.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        restingHRBpm = day.restingHRBpm
        hrvMs = day.hrvMs
        createdAt = day.createdAt.timeIntervalSince1970
    }

    package init(
        localDate: String, normalizationVersion: String, timezone: String, utcDayStart: Double, utcDayEnd: Double,
        stepsNormalized: Int?, stepsRawSum: Int?, stepsSourcesJSON: String?, activeEnergyKcal: Double?,
        sleepHours: Double?, sleepSourceJSON: String?, restingHRBpm: Double?, hrvMs: Double?, createdAt: Double
    ) {
        self.localDate = localDate
        self.normalizationVersion = normalizationVersion
        self.timezone = timezone
        self.utcDayStart = utcDayStart
        self.utcDayEnd = utcDayEnd
        self.stepsNormalized = stepsNormalized
        self.stepsRawSum = stepsRawSum
        self.stepsSourcesJSON = stepsSourcesJSON
        self.activeEnergyKcal = activeEnergyKcal
        self.sleepHours = sleepHours
        self.sleepSourceJSON = sleepSourceJSON
        self.restingHRBpm = restingHRBpm
        self.hrvMs = hrvMs
        self.createdAt = createdAt
    }

    /// The same values, `createdAt` aside.
    package func holdsTheSameValues(as other: DailyMetricsColumns) -> Bool {
        var other = other
        other.createdAt = createdAt
        return self == other
    }

    package func metrics(userID: String, decoder: JSONDecoder) throws -> NormalizedDailyMetrics {
        NormalizedDailyMetrics(
            userID: userID, localDate: localDate, timezoneIdentifier: timezone,
            utcDayStart: Date(timeIntervalSince1970: utcDayStart), utcDayEnd: Date(timeIntervalSince1970: utcDayEnd),
            stepsNormalized: stepsNormalized, stepsRawSum: stepsRawSum,
            stepsSources: try stepsSourcesJSON.map { try decoder.decode(StepsSourcesMetadata.self, from: Data($0.utf8)) },
            activeEnergyKcal: activeEnergyKcal, sleepHours: sleepHours,
            sleepSource: try sleepSourceJSON.map { try decoder.decode(SleepSourceMetadata.self, from: Data($0.utf8)) },
            restingHRBpm: restingHRBpm, hrvMs: hrvMs,
            normalizationVersion: normalizationVersion, createdAt: Date(timeIntervalSince1970: createdAt))
    }
}
