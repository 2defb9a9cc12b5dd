import Foundation
import HealthAutoExport
import HealthCore
import HealthDaily
import HealthMetrics
import HealthStore
import Hummingbird

/// `POST /v1/health-auto-export`: the body the Health Auto Export app sends, stored as
/// samples in the user's health store (content keys make a re-sent window change nothing),
/// then the daily metrics of every local day it touched recomputed and upserted.
extension HealthRoutes {
    /// What an ingest did, as answered.
    struct IngestReport: Encodable {
        var records: Int
        var added: Int
        var duplicates: Int
        var ignoredKeys: [String]
        var unknownMetrics: [String]
        var daysRecomputed: Int
        var daily: UpsertCounts

        enum CodingKeys: String, CodingKey {
            case records, added, duplicates
            case ignoredKeys = "ignored_keys"
            case unknownMetrics = "unknown_metrics"
            case daysRecomputed = "days_recomputed"
            case daily
        }
    }

    func postHealthAutoExport(_ request: Request, _ context: HealthRequestContext) async throws -> Response {
        let user = try context.requireUser(.write)
        let zone = try dayZone(request)
        let body = try await collectJSON(request, limit: configuration.maxIngestBytes)
        let batch: HAEReader.Batch
        do {
            batch = try HAEReader.read(body)
        } catch let error as HAEReader.ReadError {
            throw Problem.badRequest(error.reason, pointer: error.pointer.isEmpty ? nil : error.pointer)
        }
        let database = try repositories.healthStores.store(for: user.id)
        let (added, duplicates) = try database.write { writer in
            for record in batch.records { _ = try writer.write(record) }
            return (writer.added.values.reduce(0, +), writer.duplicates.values.reduce(0, +))
        }
        let (days, daily) = try await recompute(batch.records, user: user, zone: zone, database: database)
        return try json(
            IngestReport(
                records: batch.records.count, added: added, duplicates: duplicates, ignoredKeys: batch.ignoredKeys,
                unknownMetrics: batch.unknownMetrics, daysRecomputed: days, daily: daily))
    }

    /// Normalises the local days (in `zone`, or the samples' `HKTimeZone`) that the records
    /// start on, plus the day after each night, and upserts them as `norm_v1`.
    private func recompute(
        _ records: [HealthRecord], user: User, zone: TimeZone, database: HealthDatabase
    ) async throws -> (Int, UpsertCounts) {
        let starts: [Date] = records.compactMap { record in
            switch record {
            case .sample(let sample): sample.start
            case .workout(let workout): workout.start
            case .correlation(let correlation): correlation.start
            default: nil
            }
        }
        guard let earliest = starts.min(), let latest = starts.max() else { return (0, UpsertCounts()) }
        let first = LocalDate(earliest, in: zone)
        let last = min(LocalDate(latest, in: zone).adding(days: 1), first.adding(days: 3660))
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = zone
        settings.userID = user.id
        let days = try await DailyNormalizer(store: database.store, configuration: settings, now: { Date() })
            .metrics(from: first, through: last)
        return (days.count, try await repositories.dailyMetrics.upsert(days, userID: user.id))
    }

    /// `?tz=` (an IANA zone; the zone of days without `HKTimeZone`), default UTC.
    private func dayZone(_ request: Request) throws -> TimeZone {
        let name = request.uri.queryParameters["tz"].map(String.init) ?? "UTC"
        guard let zone = TimeZone(identifier: name) else {
            throw Problem.badRequest("tz must be an IANA zone such as Europe/Paris, not '\(name)'")
        }
        return zone
    }
}
