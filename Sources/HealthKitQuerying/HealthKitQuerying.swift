import Foundation
import HealthCore
import HealthKitCompat

/// ``HealthQuerying`` written against HealthKit's API only, so that
/// our daily metrics, sleep, snapshot, readiness, CSV export and sync client run on an
/// iPhone's HealthKit. On Linux the same code runs on HealthKitCompat over our store (and
/// is tested there: its answers equal the store's own, query by query).
///
/// ```swift
/// let health = HealthKitQuerying(healthStore: HKHealthStore())
/// let normalizer = DailyNormalizer(store: health, configuration: .init(), now: { Date() })
/// ```
///
/// What HealthKit cannot give: per-change anchors (each change of an answer carries the
/// answer's new anchor; deletions come before additions, which keeps a replica exact),
/// the writer's creation date and UTC offset, HRV beats, metadata order and repeated keys
/// (metadata is a dictionary: entries come sorted by key). Quantities come in the unit of
/// ``unit(for:)``. The caller must have requested read access for the types it asks about.
public final class HealthKitQuerying: HealthQuerying, @unchecked Sendable {
    let healthStore: HKHealthStore
    /// The types ``latestAnchor()`` and ``sampleSpans()`` look at (HealthKit cannot
    /// list the types that have data).
    public let types: [SampleType]

    public init(healthStore: HKHealthStore, types: [SampleType] = HealthKitQuerying.pipelineTypes) {
        self.healthStore = healthStore
        self.types = types
    }

    /// The types our pipelines read.
    public static let pipelineTypes: [SampleType] = [
        .stepCount, .activeEnergyBurned, .basalEnergyBurned, .heartRate, .restingHeartRate, .heartRateVariabilitySDNN,
        .distanceWalkingRunning, .appleExerciseTime, .bodyMass, .bodyFatPercentage, .sleepAnalysis, .workout,
    ]

    /// The HealthKit types to ask read access for (`requestAuthorization(toShare:read:)`)
    /// before using this object: one per type in ``types`` that HealthKit has, and the route
    /// type with workouts.
    public var readTypes: Set<HKObjectType> {
        var read = Set<HKObjectType>(types.compactMap { Self.sampleType($0) })
        // A workout's routes are samples of their own type.
        if types.contains(.workout) { read.insert(HKSeriesType.workoutRoute()) }
        return read
    }

    /// The unit values of `type` are read in: the unit HealthKit keeps the type in.
    public static func unit(for type: SampleType) -> String? {
        switch type.identifier.dropFirst("HKQuantityTypeIdentifier".count) {
        case "StepCount", "FlightsClimbed", "PushCount", "SwimmingStrokeCount", "BodyMassIndex", "UVExposure": "count"
        case "HeartRate", "RestingHeartRate", "WalkingHeartRateAverage", "RespiratoryRate",
            "HeartRateRecoveryOneMinute":
            "count/min"
        case "ActiveEnergyBurned", "BasalEnergyBurned", "DietaryEnergyConsumed": "kcal"
        case "HeartRateVariabilitySDNN", "RunningGroundContactTime": "ms"
        case "DistanceWalkingRunning", "DistanceCycling", "DistanceSwimming", "DistanceWheelchair", "Height",
            "WaistCircumference", "WalkingStepLength", "SixMinuteWalkTestDistance":
            "m"
        case "AppleExerciseTime", "AppleStandTime", "AppleMoveTime", "TimeInDaylight": "min"
        case "BodyMass", "LeanBodyMass": "kg"
        case "BodyFatPercentage", "OxygenSaturation", "WalkingAsymmetryPercentage", "WalkingDoubleSupportPercentage":
            "%"
        case "BloodPressureSystolic", "BloodPressureDiastolic": "mmHg"
        case "BloodGlucose": "mg/dL"
        case "BodyTemperature", "BasalBodyTemperature", "AppleSleepingWristTemperature": "degC"
        case "VO2Max": "mL/kg·min"
        case "WalkingSpeed", "RunningSpeed": "m/s"
        case "EnvironmentalAudioExposure", "HeadphoneAudioExposure": "dBASPL"
        case "DietaryWater": "mL"
        default: nil
        }
    }

    // MARK: HealthQuerying

    public func samples(of type: SampleType, overlapping interval: DateInterval) async throws -> [Sample] {
        guard let sampleType = Self.sampleType(type) else { return [] }
        // HealthKit's overlap also takes a sample that ends exactly at the interval's start;
        // ours does not (``Sample/overlaps(_:)``): filter.
        let predicate = HKQuery.predicateForSamples(withStart: interval.start, end: interval.end, options: [])
        let found = try await query(
            sampleType, predicate: predicate, limit: HKObjectQueryNoLimit, ascendingBy: HKSampleSortIdentifierStartDate)
        return found.compactMap { Self.sample($0) }.filter { $0.overlaps(interval) }
    }

    public func latestSample(of type: SampleType, endingBy instant: Date) async throws -> Sample? {
        guard let sampleType = Self.sampleType(type) else { return nil }
        // HealthKit's predicate wants `startDate < end`; ours takes an instant at `instant`:
        // ask a millisecond further and filter, a few candidates at a time.
        let predicate = HKQuery.predicateForSamples(
            withStart: nil, end: instant.addingTimeInterval(0.001), options: .strictEndDate)
        for limit in [8, HKObjectQueryNoLimit] {
            let found = try await query(
                sampleType, predicate: predicate, limit: limit, descendingBy: HKSampleSortIdentifierEndDate)
            if let latest = found.first(where: { $0.endDate <= instant && $0.startDate <= instant }) {
                return Self.sample(latest)
            }
            if found.count < limit { return nil }
        }
        return nil
    }

    public func statistics(
        of type: SampleType, over interval: DateInterval, unit: HealthUnit
    ) async throws
        -> SampleStatistics
    {
        // Our statistics count every source (normalisation merges them); HealthKit's
        // `HKStatisticsQuery` merges by source priority: compute from the samples.
        SampleStatistics.compute(try await samples(of: type, overlapping: interval), over: interval, unit: unit)
    }

    public func changes(of type: SampleType, since anchor: QueryAnchor, limit: Int) async throws -> AnchoredChanges {
        guard let sampleType = Self.sampleType(type) else {
            return AnchoredChanges(changes: [], nextAnchor: anchor, hasMore: false)
        }
        let (samples, deleted, newAnchor) = try await anchored(sampleType, after: anchor, limit: limit)
        let next = newAnchor ?? anchor
        let changes =
            deleted.map { SampleChange.deleted(DeletedObject(uuid: $0.uuid, type: type, anchor: next)) }
            + samples.compactMap { Self.sample($0) }.map { SampleChange.added($0, anchor: next) }
        return AnchoredChanges(
            changes: changes, nextAnchor: next, hasMore: next != anchor && samples.count + deleted.count >= limit)
    }

    /// The latest anchor of ``types``: HealthKit has no direct question for it, so each
    /// type's feed is read to its end (as an app's first anchored query does).
    public func latestAnchor() async throws -> QueryAnchor {
        var latest = QueryAnchor.initial
        for type in types {
            guard let sampleType = Self.sampleType(type) else { continue }
            let (_, _, anchor) = try await anchored(sampleType, after: nil, limit: HKObjectQueryNoLimit)
            latest = max(latest, anchor ?? .initial)
        }
        return latest
    }

    /// Per type of ``types``: the earliest-starting and the latest-ending sample, one
    /// query each (HealthKit cannot list the types that have data).
    public func sampleSpans() async throws -> [SampleTypeSpan] {
        var spans: [SampleTypeSpan] = []
        for type in types {
            guard let sampleType = Self.sampleType(type) else { continue }
            let first = try await query(sampleType, predicate: nil, limit: 1, ascendingBy: HKSampleSortIdentifierStartDate)
            let last = try await query(sampleType, predicate: nil, limit: 1, descendingBy: HKSampleSortIdentifierEndDate)
            guard let start = first.first?.startDate, let end = last.first?.endDate else { continue }
            spans.append(SampleTypeSpan(type: type, first: start, last: end))
        }
        return spans.sorted { $0.type < $1.type }
    }

    // MARK: SampleScanning

    /// The samples of `type` starting in `interval`, read in one HealthKit query (it has no
    /// cursor), handed on in pages of ``sampleScanPageSize``.
    public func samplePages(of type: SampleType, startingIn interval: DateInterval?) -> SamplePages {
        SamplePages {
            guard let sampleType = Self.sampleType(type) else { return SampleScanPage(rows: [], next: nil) }
            let predicate = interval.map {
                HKQuery.predicateForSamples(withStart: $0.start, end: $0.end, options: .strictStartDate)
            }
            let found = try await self.query(
                sampleType, predicate: predicate, limit: HKObjectQueryNoLimit, ascendingBy: HKSampleSortIdentifierStartDate)
            return SampleScanPage.pages(of: found.compactMap { Self.sample($0) }.map(SampleRow.init))
        }
    }

    /// Clinical records need HealthKit's clinical-records entitlement and types, which are
    /// not read here: none.
    public func clinicalRecords() async throws -> [ClinicalRecord] { [] }

    // MARK: HealthKit calls

    func query(
        _ type: HKSampleType, predicate: NSPredicate?, limit: Int, ascendingBy key: String
    ) async throws
        -> [HKSample]
    {
        try await query(type, predicate: predicate, limit: limit, sort: NSSortDescriptor(key: key, ascending: true))
    }

    func query(
        _ type: HKSampleType, predicate: NSPredicate?, limit: Int, descendingBy key: String
    ) async throws
        -> [HKSample]
    {
        try await query(type, predicate: predicate, limit: limit, sort: NSSortDescriptor(key: key, ascending: false))
    }

    func query(
        _ type: HKSampleType, predicate: NSPredicate?, limit: Int, sort: NSSortDescriptor
    ) async throws
        -> [HKSample]
    {
        let box = UncheckedBox((type, predicate, sort))
        return try await withCheckedThrowingContinuation { continuation in
            let (type, predicate, sort) = box.value
            let query = HKSampleQuery(sampleType: type, predicate: predicate, limit: limit, sortDescriptors: [sort]) {
                _, samples, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
            }
            healthStore.execute(query)
        }
    }

    private func anchored(
        _ type: HKSampleType, after anchor: QueryAnchor?, limit: Int
    ) async throws
        -> ([HKSample], [HKDeletedObject], QueryAnchor?)
    {
        let start = anchor.map { HKQueryAnchor(fromValue: Int($0.rawValue)) }
        let box = UncheckedBox((type, start))
        return try await withCheckedThrowingContinuation { continuation in
            let (type, start) = box.value
            let query = HKAnchoredObjectQuery(type: type, predicate: nil, anchor: start, limit: limit) {
                _, samples, deleted, newAnchor, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(
                        returning: (samples ?? [], deleted ?? [], newAnchor.map { QueryAnchor(Int64($0.integerValue)) }))
                }
            }
            healthStore.execute(query)
        }
    }

}
