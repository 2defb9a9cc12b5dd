#if !canImport(HealthKit)
    import Foundation

    /// A sample type and a predicate, typed by the samples it yields (the async API's form).
    public struct HKSamplePredicate<Sample: HKSample>: @unchecked Sendable {
        public let sampleType: HKSampleType
        public let nsPredicate: NSPredicate?

        init(sampleType: HKSampleType, predicate: NSPredicate?) {
            self.sampleType = sampleType
            self.nsPredicate = predicate
        }

        public static func sample(type: HKSampleType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKSample> {
            HKSamplePredicate<HKSample>(sampleType: type, predicate: predicate)
        }

        public static func quantitySample(
            type: HKQuantityType, predicate: NSPredicate? = nil
        )
            -> HKSamplePredicate<HKQuantitySample>
        {
            HKSamplePredicate<HKQuantitySample>(sampleType: type, predicate: predicate)
        }

        public static func categorySample(
            type: HKCategoryType, predicate: NSPredicate? = nil
        )
            -> HKSamplePredicate<HKCategorySample>
        {
            HKSamplePredicate<HKCategorySample>(sampleType: type, predicate: predicate)
        }

        public static func workout(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkout> {
            HKSamplePredicate<HKWorkout>(sampleType: HKObjectType.workoutType(), predicate: predicate)
        }

        public static func correlation(
            type: HKCorrelationType, predicate: NSPredicate? = nil
        )
            -> HKSamplePredicate<HKCorrelation>
        {
            HKSamplePredicate<HKCorrelation>(sampleType: type, predicate: predicate)
        }
    }

    /// `HKSampleQuery` as one `async` call.
    public struct HKSampleQueryDescriptor<Sample: HKSample>: @unchecked Sendable {
        public var predicates: [HKSamplePredicate<Sample>]
        public var sortDescriptors: [SortDescriptor<Sample>]
        public var limit: Int?

        public init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>], limit: Int? = nil) {
            self.predicates = predicates
            self.sortDescriptors = sortDescriptors
            self.limit = limit
        }

        public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
            var samples: [Sample] = []
            for predicate in predicates {
                samples += try await healthStore.fetchSamples(predicate.sampleType, predicate: predicate.nsPredicate)
                    .compactMap { $0 as? Sample }
            }
            if !sortDescriptors.isEmpty {
                let indexed = Array(samples.enumerated())
                samples = indexed.sorted { left, right in
                    for descriptor in sortDescriptors {
                        switch descriptor.compare(left.element, right.element) {
                        case .orderedAscending: return true
                        case .orderedDescending: return false
                        case .orderedSame: continue
                        }
                    }
                    return sortDescriptors[0].order == .forward ? left.offset < right.offset : left.offset > right.offset
                }.map(\.element)
            }
            if let limit, limit > 0 { samples = Array(samples.prefix(limit)) }
            return samples
        }
    }

    /// `HKAnchoredObjectQuery` as one `async` call.
    public struct HKAnchoredObjectQueryDescriptor<Sample: HKSample>: @unchecked Sendable {
        public struct Result: @unchecked Sendable {
            public let addedSamples: [Sample]
            public let deletedObjects: [HKDeletedObject]
            public let newAnchor: HKQueryAnchor
        }

        public var predicates: [HKSamplePredicate<Sample>]
        public var anchor: HKQueryAnchor?
        public var limit: Int?

        public init(predicates: [HKSamplePredicate<Sample>], anchor: HKQueryAnchor?, limit: Int? = nil) {
            self.predicates = predicates
            self.anchor = anchor
            self.limit = limit
        }

        public func result(for healthStore: HKHealthStore) async throws -> Result {
            var added: [Sample] = []
            var deleted: [HKDeletedObject] = []
            var newAnchor = anchor ?? HKQueryAnchor(fromValue: 0)
            for predicate in predicates {
                let answer = try await HKAnchoredObjectQuery.changes(
                    of: predicate.sampleType, predicate: predicate.nsPredicate, after: anchor, limit: limit ?? 0,
                    in: healthStore)
                added += answer.samples.compactMap { $0 as? Sample }
                deleted += answer.deleted
                if answer.anchor.value > newAnchor.value { newAnchor = answer.anchor }
            }
            return Result(addedSamples: added, deletedObjects: deleted, newAnchor: newAnchor)
        }
    }

    /// `HKStatisticsCollectionQuery` as one `async` call.
    public struct HKStatisticsCollectionQueryDescriptor: @unchecked Sendable {
        public var predicate: HKSamplePredicate<HKQuantitySample>
        public var options: HKStatisticsOptions
        public var anchorDate: Date
        public var intervalComponents: DateComponents

        public init(
            predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions, anchorDate: Date,
            intervalComponents: DateComponents
        ) {
            self.predicate = predicate
            self.options = options
            self.anchorDate = anchorDate
            self.intervalComponents = intervalComponents
        }

        public func result(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection {
            guard let type = predicate.sampleType as? HKQuantityType else {
                throw HKError(.errorInvalidArgument, message: "statistics need a quantity type")
            }
            return try await HKStatisticsCollectionQuery(
                quantityType: type, quantitySamplePredicate: predicate.nsPredicate, options: options, anchorDate: anchorDate,
                intervalComponents: intervalComponents
            ).compute(on: healthStore)
        }
    }
#endif
