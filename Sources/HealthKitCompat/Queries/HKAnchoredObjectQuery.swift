#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// The samples added and the objects deleted after an anchor, with the anchor to ask from
    /// next (`limit` counts both; 0: no limit). A `nil` anchor gives the current samples and
    /// no deletions, as in HealthKit. With an update handler it keeps answering after each
    /// change to the store.
    public final class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
        public typealias Handler =
            @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?)
            -> Void

        private let anchor: HKQueryAnchor?
        private let limit: Int
        private let resultsHandler: Handler
        public var updateHandler: Handler?

        public init(
            type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
            resultsHandler handler: @escaping Handler
        ) {
            self.anchor = anchor
            self.limit = limit
            self.resultsHandler = handler
            super.init(objectType: type, predicate: predicate)
        }

        override func run(on store: HKHealthStore) async {
            let type = objectType as! HKSampleType
            let notices = updateHandler == nil ? nil : try? store.store().observe([SampleType(type.identifier)])
            defer { notices?.finish() }
            var current = anchor
            do {
                let answer = try await Self.changes(of: type, predicate: predicate, after: current, limit: limit, in: store)
                guard !isStopped else { return }
                current = answer.anchor
                resultsHandler(self, answer.samples, answer.deleted, answer.anchor, nil)
            } catch {
                if !isStopped { resultsHandler(self, nil, nil, nil, error) }
                return
            }
            guard let notices, let update = updateHandler else { return }
            for await _ in notices {
                guard !isStopped else { return }
                do {
                    let answer = try await Self.changes(of: type, predicate: predicate, after: current, limit: 0, in: store)
                    guard !isStopped else { return }
                    current = answer.anchor
                    update(self, answer.samples, answer.deleted, answer.anchor, nil)
                } catch {
                    if !isStopped { update(self, nil, nil, nil, error) }
                }
            }
        }

        static func changes(
            of type: HKSampleType, predicate: NSPredicate?, after anchor: HKQueryAnchor?, limit: Int, in store: HKHealthStore
        ) async throws -> (samples: [HKSample], deleted: [HKDeletedObject], anchor: HKQueryAnchor) {
            guard try store.mayRead(type) else { return ([], [], anchor ?? HKQueryAnchor(fromValue: 0)) }
            let since = QueryAnchor(anchor?.value ?? 0)
            let page = try await store.store().changes(
                of: SampleType(type.identifier), since: since, limit: limit > 0 ? limit : Int(Int32.max))
            var samples = page.samples.compactMap { SampleBridge.object($0) }
            if let predicate { samples = samples.filter { predicate.evaluate(with: $0) } }
            let deleted = anchor == nil ? [] : page.deletedObjects.map { HKDeletedObject(uuid: $0.uuid) }
            return (samples, deleted, HKQueryAnchor(fromValue: Int(page.nextAnchor.rawValue)))
        }
    }

    /// Says that samples of a type changed (never what): follow with an anchored query, and
    /// call the completion handler each time. Fires once when it starts, then after each
    /// committed write that touches the type.
    public final class HKObserverQuery: HKQuery, @unchecked Sendable {
        private let updateHandler: @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void

        public init(
            sampleType: HKSampleType, predicate: NSPredicate?,
            updateHandler: @escaping @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void
        ) {
            self.updateHandler = updateHandler
            super.init(objectType: sampleType, predicate: predicate)
        }

        override func run(on store: HKHealthStore) async {
            let type = objectType as! HKSampleType
            let notices: ChangeNotices
            do {
                guard try store.mayRead(type) else { return }
                notices = try store.store().observe([SampleType(type.identifier)])
            } catch {
                if !isStopped { updateHandler(self, {}, error) }
                return
            }
            defer { notices.finish() }
            updateHandler(self, {}, nil)
            for await _ in notices {
                guard !isStopped else { return }
                updateHandler(self, {}, nil)
            }
        }
    }

    public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void

    /// Correlations of a type, with their member samples; `samplePredicates` keeps only
    /// correlations with a member of each listed type that matches its predicate.
    public final class HKCorrelationQuery: HKQuery, @unchecked Sendable {
        public let samplePredicates: [HKSampleType: NSPredicate]?
        private let completion: @Sendable (HKCorrelationQuery, [HKCorrelation]?, (any Error)?) -> Void

        public init(
            type correlationType: HKCorrelationType, predicate: NSPredicate?, samplePredicates: [HKSampleType: NSPredicate]?,
            completion: @escaping @Sendable (HKCorrelationQuery, [HKCorrelation]?, (any Error)?) -> Void
        ) {
            self.samplePredicates = samplePredicates
            self.completion = completion
            super.init(objectType: correlationType, predicate: predicate)
        }

        public var correlationType: HKCorrelationType { objectType as! HKCorrelationType }

        override func run(on store: HKHealthStore) async {
            do {
                var correlations = try await store.fetchSamples(correlationType, predicate: predicate).compactMap {
                    $0 as? HKCorrelation
                }
                for (type, predicate) in samplePredicates ?? [:] {
                    correlations = correlations.filter { correlation in
                        correlation.objects(for: type).contains { predicate.evaluate(with: $0) }
                    }
                }
                guard !isStopped else { return }
                completion(self, correlations, nil)
            } catch {
                if !isStopped { completion(self, nil, error) }
            }
        }
    }
#endif
