import Foundation
import HealthCore
import HealthKitCompat

/// The rest of the read port over HealthKit: what the store holds per type, correlations
/// with their members, and what HealthKit's API does not give here yet (workouts are in
/// HealthKitQuerying+Workouts.swift).
extension HealthKitQuerying {
    /// Per type of ``types`` that has samples: the count, the first and the latest start and
    /// the sources (most samples first), from every sample of the type (HealthKit cannot
    /// count or group: one query per type, read whole).
    public func sampleInventory() async throws -> [SampleTypeInventory] {
        var rows: [(type: String, source: String, count: Int, first: Double, last: Double)] = []
        for type in types.sorted(by: { $0.identifier < $1.identifier }) {
            guard let sampleType = Self.sampleType(type) else { continue }
            let found = try await query(
                sampleType, predicate: nil, limit: HKObjectQueryNoLimit, ascendingBy: HKSampleSortIdentifierStartDate)
            var bySource: [String: (count: Int, first: Double, last: Double)] = [:]
            for object in found {
                let start = object.startDate.timeIntervalSince1970
                let known = bySource[object.sourceRevision.source.name] ?? (0, start, start)
                bySource[object.sourceRevision.source.name] = (known.count + 1, min(known.first, start), max(known.last, start))
            }
            rows += bySource.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }.map {
                (type: type.identifier, source: $0.key, count: $0.value.count, first: $0.value.first, last: $0.value.last)
            }
        }
        return SampleTypeInventory.merging(rows)
    }

    /// The correlations of `type` overlapping `interval` (``Sample/overlaps(_:)``), by start,
    /// each with its members by start and type (HealthKit gives them as a set).
    public func correlations(
        of type: SampleType, overlapping interval: DateInterval
    ) async throws -> [(
        correlation: Sample, members: [Sample]
    )] {
        guard type.kind == .correlation, let correlationType = Self.sampleType(type) as? HKCorrelationType else { return [] }
        let predicate = HKQuery.predicateForSamples(withStart: interval.start, end: interval.end, options: [])
        let box = UncheckedBox((correlationType, predicate))
        let found: [HKCorrelation] = try await withCheckedThrowingContinuation { continuation in
            let (correlationType, predicate) = box.value
            let query = HKCorrelationQuery(type: correlationType, predicate: predicate, samplePredicates: nil) {
                _, correlations, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: correlations ?? []) }
            }
            healthStore.execute(query)
        }
        return found.compactMap { correlation -> (correlation: Sample, members: [Sample])? in
            guard let sample = Self.sample(correlation), sample.overlaps(interval) else { return nil }
            let members = correlation.objects.compactMap { Self.sample($0) }
                .sorted { ($0.start, $0.type.identifier) < ($1.start, $1.type.identifier) }
            return (sample, members)
        }
        .sorted { $0.correlation.start < $1.correlation.start }
    }

    /// None: HealthKitCompat has no `HKActivitySummaryQuery`; the rings' goals come from the
    /// reader's settings.
    public func activitySummary(on date: String) async throws -> ActivitySummary? { nil }
}
