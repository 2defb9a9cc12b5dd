import Foundation
import HealthCore
import HealthServerRecords
import HealthWire
import Testing

/// A write that completed records stored before — a day's Activity summary read again later
/// in the day, a workout whose route points came after it — counted in neither `added` nor
/// `duplicates`: `POST /v1/samples` and an import job answered counts that did not add up to
/// the records sent. ``HealthWriteReport/updated`` counts them, on both stores.
@Suite struct I37WriteReportUpdatedTests {
    static func rings(_ energy: Double, asOf: Date) -> HealthRecord {
        var summary = ActivitySummary(dateComponents: "2024-03-01")
        summary.activeEnergyBurned = energy
        summary.activeEnergyBurnedUnit = "kcal"
        summary.activeEnergyBurnedGoal = 500
        summary.asOf = asOf
        return .activitySummary(summary)
    }

    @Test(arguments: ServerBackend.enabled) func aLaterReadingOfTheDaysRingsIsCountedUpdated(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let morning = Date(timeIntervalSince1970: 1_709_280_000)
        let reports = try await harness.repositories().writing(alice) { store in
            [
                try await store.apply([.records([Self.rings(120, asOf: morning)])]),
                try await store.apply([.records([Self.rings(120, asOf: morning)])]),
                try await store.apply([.records([Self.rings(410, asOf: morning + 36_000)])]),
            ]
        }
        #expect(reports.map { [$0.added, $0.duplicates, $0.updated] } == [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    }

    /// Found reviewing: the answers' JSON carries the count (absent when 0), the sync
    /// batch's too, and an answer without it still decodes.
    @Test func theAnswersSayIt() throws {
        var report = IngestReport(
            records: 3, added: 1, duplicates: 1, ignoredKeys: [], unknownMetrics: [], daysRecomputed: 0, daily: UpsertCounts())
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func keys(_ report: IngestReport) throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: try encoder.encode(report)) as? [String: Any] ?? [:]
        }
        #expect(try keys(report)["updated"] == nil)  // (`daily` has an `updated` of its own)
        report.updated = 1
        #expect(try keys(report)["updated"] as? Int == 1)
        var batch = SyncBatchAnswer(batchID: UUID(), sequence: 4)
        batch.updated = 2
        let json = try encoder.encode(batch)
        #expect(String(decoding: json, as: UTF8.self).contains(#""updated":2"#))
        #expect(try JSONDecoder().decode(SyncBatchAnswer.self, from: json) == batch)
        let older = Data(
            #"{"batch_id":"\#(UUID().uuidString)","sequence":1,"added":0,"duplicates":0,"deleted":0,"unknown":0,"days_recomputed":0}"#
                .utf8)
        #expect(try JSONDecoder().decode(SyncBatchAnswer.self, from: older).updated == nil)
    }
}
