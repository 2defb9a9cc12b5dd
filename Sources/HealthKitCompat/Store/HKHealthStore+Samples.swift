#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    extension HKHealthStore {
        /// The samples of `type` that `predicate` matches, in storage order (start, then the
        /// order stored), members attached to correlations; empty when reading is not allowed.
        func fetchSamples(_ type: HKSampleType, predicate: NSPredicate?) async throws -> [HKSample] {
            guard try mayRead(type) else { return [] }
            let store = try store()
            let window = HKObjectPredicate.window(of: predicate) ?? DateInterval(start: .distantPast, end: .distantFuture)
            let sampleType = SampleType(type.identifier)
            let objects: [HKSample]
            if type is HKSeriesType {
                objects = try await routes(predicate: predicate, window: window)
            } else if sampleType.kind == .workout, let uuids = HKObjectPredicate.uuids(of: predicate), uuids.count <= 100 {
                // A few workouts by UUID (`predicateForObject(with:)`): each read alone, not a
                // whole history of them.
                var found: [Workout] = []
                for uuid in uuids.sorted(by: { $0.uuidString < $1.uuidString }) {
                    if let workout = try await store.workout(uuid) { found.append(workout) }
                }
                objects = found.sorted { $0.start < $1.start }.compactMap(SampleBridge.workout)
            } else if sampleType.kind == .workout {
                objects = try await store.workouts(overlapping: window).compactMap(SampleBridge.workout)
            } else if sampleType.kind == .correlation {
                objects = try await store.correlations(of: sampleType, overlapping: window).compactMap {
                    SampleBridge.object($0.correlation, members: $0.members)
                }
            } else {
                objects = try await store.samples(of: sampleType, overlapping: window).compactMap { SampleBridge.object($0) }
            }
            guard let predicate else { return objects }
            return objects.filter { predicate.evaluate(with: $0) }
        }

        /// The routes of the workouts `predicate` can match: of its workout when it names one
        /// (``HKQuery/predicateForObjects(from:)-(HKWorkout)``), else of every workout in `window`.
        private func routes(predicate: NSPredicate?, window: DateInterval) async throws -> [HKSample] {
            let store = try store()
            let uuids: [UUID]
            if let workout = HKObjectPredicate.workout(of: predicate) {
                uuids = [workout]
            } else {
                uuids = try await store.workouts(overlapping: window).map(\.uuid)
            }
            var routes: [HKSample] = []
            for uuid in uuids {
                guard let workout = try await store.workout(uuid) else { continue }
                routes += SampleBridge.routes(of: workout)
            }
            return routes
        }

        // MARK: Writing

        /// Saves objects (all or none); each type needs sharing permission.
        public func save(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
            Task.detached { [self] in
                do {
                    try await save(objects)
                    completion(true, nil)
                } catch {
                    completion(false, error)
                }
            }
        }

        public func save(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
            save([object], withCompletion: completion)
        }

        public func save(_ objects: [HKObject]) async throws {
            let samples = try objects.map { object -> Sample in
                guard let sample = object as? HKSample, !(object is HKCorrelation) else {
                    throw HKError(.errorInvalidArgument, message: "only quantity, category and workout samples are saved here")
                }
                try mayShare(sample.sampleType)
                if let quantity = sample as? HKQuantitySample, !quantity.quantityType.is(compatibleWith: quantity.quantity.unit) {
                    throw HKError(
                        .errorInvalidArgument,
                        message: "\(quantity.quantity.unit.unitString) is not a unit of \(quantity.sampleType.identifier)")
                }
                guard sample.endDate >= sample.startDate else {
                    throw HKError(.errorInvalidArgument, message: "a sample's end date precedes its start date")
                }
                return SampleBridge.sample(sample)
            }
            try await store().add(samples)
        }

        public func save(_ object: HKObject) async throws { try await save([object]) }

        /// Deletes objects this app may write.
        public func delete(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
            Task.detached { [self] in
                do {
                    try await delete(objects)
                    completion(true, nil)
                } catch {
                    completion(false, error)
                }
            }
        }

        public func delete(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
            delete([object], withCompletion: completion)
        }

        public func delete(_ objects: [HKObject]) async throws {
            for case let sample as HKSample in objects { try mayShare(sample.sampleType) }
            _ = try await store().delete(uuids: objects.map(\.uuid))
        }

        public func delete(_ object: HKObject) async throws { try await delete([object]) }

        private func mayShare(_ type: HKObjectType) throws {
            guard authorizationStatus(for: type) == .sharingAuthorized else {
                throw HKError(.errorAuthorizationDenied, message: "Not authorized to write \(type.identifier)")
            }
        }
    }
#endif
