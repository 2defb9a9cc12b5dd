#if !canImport(HealthKit)
    import Foundation
    import HealthCore
    import HealthSQLite

    /// HealthKit's `HKHealthStore`, over a HealthPipeline store (an SQLite file imported from
    /// an Apple Health export, or any ``MutableHealthStore``).
    ///
    /// `HKHealthStore()` opens the store at `$HEALTHKIT_STORE`, else `healthpipe`'s default
    /// (`$XDG_DATA_HOME/healthpipe/health.sqlite`, else `~/.local/share/healthpipe/health.sqlite`),
    /// and answers requests for access by the policy file at `$HEALTHKIT_AUTHORIZATION`, else
    /// grants them all. ``init(contentsOf:authorization:)`` and ``init(store:authorization:)``
    /// choose both explicitly (only here: HealthKit has one store per device).
    public final class HKHealthStore: NSObject, @unchecked Sendable {
        let backend: Result<any MutableHealthStore, HKError>
        let policy: HKAuthorizationPolicy
        private let requests = Locked(Requests())

        private struct Requests {
            var read: Set<String> = []
            var share: Set<String> = []
            var background: [String: HKUpdateFrequency] = [:]
        }

        /// The device's store: see the type's description for where it is.
        public override convenience init() {
            let environment = ProcessInfo.processInfo.environment
            let path = HKHealthStore.defaultPath(environment: environment)
            var policy = HKAuthorizationPolicy.grantAll
            var failure: HKError?
            if let file = environment["HEALTHKIT_AUTHORIZATION"], !file.isEmpty {
                do {
                    policy = try HKAuthorizationPolicy(contentsOf: URL(fileURLWithPath: file))
                } catch {
                    failure = error as? HKError ?? HKError(.errorInvalidArgument, message: "\(file): cannot be read")
                    policy = .denyAll
                }
            }
            if let failure {
                self.init(backend: .failure(failure), policy: policy)
            } else {
                self.init(path: path, policy: policy)
            }
        }

        /// A store over the SQLite file at `url` (it must exist), answering requests for access
        /// by `authorization`.
        public convenience init(contentsOf url: URL, authorization: HKAuthorizationPolicy = .grantAll) throws {
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw HKError(.errorDatabaseInaccessible, message: "no store at \(url.path)")
            }
            let database = try HealthDatabase(path: url.path)
            self.init(backend: .success(database.store), policy: authorization)
        }

        /// A store over `store` (an ``InMemoryHealthStore`` for tests), answering requests for
        /// access by `authorization`.
        public convenience init(store: some MutableHealthStore, authorization: HKAuthorizationPolicy = .grantAll) {
            self.init(backend: .success(store), policy: authorization)
        }

        private convenience init(path: String, policy: HKAuthorizationPolicy) {
            do {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw HKError(.errorHealthDataUnavailable, message: "no store at \(path) (set HEALTHKIT_STORE)")
                }
                let database = try HealthDatabase(path: path)
                self.init(backend: .success(database.store), policy: policy)
            } catch {
                let failure = error as? HKError ?? HKError(.errorDatabaseInaccessible, message: "\(path): \(error)")
                self.init(backend: .failure(failure), policy: policy)
            }
        }

        private init(
            backend: Result<any MutableHealthStore, HKError>, policy: HKAuthorizationPolicy
        ) {
            self.backend = backend
            self.policy = policy
            super.init()
        }

        static func defaultPath(environment: [String: String]) -> String {
            if let path = environment["HEALTHKIT_STORE"], !path.isEmpty { return path }
            if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/healthpipe/health.sqlite" }
            return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/healthpipe/health.sqlite"
        }

        /// `true` when the default store exists (HealthKit: `true` on an iPhone).
        public class func isHealthDataAvailable() -> Bool {
            FileManager.default.fileExists(atPath: defaultPath(environment: ProcessInfo.processInfo.environment))
        }

        /// The earliest date samples may have (HealthKit's limit on saved samples).
        public func earliestPermittedSampleDate() -> Date { Date(timeIntervalSinceReferenceDate: -978_307_200) }

        // MARK: Authorization

        /// Records the request; "the user" answers by the policy. As in HealthKit, `success`
        /// says the request was handled, not what was granted.
        public func requestAuthorization(
            toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
            completion: @escaping @Sendable (Bool, (any Error)?) -> Void
        ) {
            let share = typesToShare ?? []
            let read = typesToRead ?? []
            if share.isEmpty && read.isEmpty {
                completion(false, HKError(.errorInvalidArgument, message: "requestAuthorization: no types to share or read"))
                return
            }
            requests.withLock { requests in
                requests.share.formUnion(share.map(\.identifier))
                requests.read.formUnion(read.map(\.identifier))
            }
            DispatchQueue.global().async { completion(true, nil) }
        }

        public func requestAuthorization(
            toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>
        )
            async throws
        {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                requestAuthorization(toShare: typesToShare, read: typesToRead) { _, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        }

        /// Write permission only: whether reading is allowed is never revealed (a denied read
        /// looks like no data).
        public func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
            guard requests.withLock({ $0.share.contains(type.identifier) }) else { return .notDetermined }
            return policy.allowsSharing(type) ? .sharingAuthorized : .sharingDenied
        }

        public func getRequestStatusForAuthorization(
            toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
            completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void
        ) {
            let asked = requests.withLock { requests in
                typesToShare.allSatisfy { requests.share.contains($0.identifier) }
                    && typesToRead.allSatisfy { requests.read.contains($0.identifier) }
            }
            DispatchQueue.global().async { completion(asked ? .unnecessary : .shouldRequest, nil) }
        }

        public func statusForAuthorizationRequest(
            toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>
        )
            async throws -> HKAuthorizationRequestStatus
        {
            await withCheckedContinuation { continuation in
                getRequestStatusForAuthorization(toShare: typesToShare, read: typesToRead) { status, _ in
                    continuation.resume(returning: status)
                }
            }
        }

        /// How a query may read `type`: throws before any request for it, `false` when the
        /// user did not allow it (the query then answers with nothing, as HealthKit does).
        func mayRead(_ type: HKObjectType) throws -> Bool {
            let requested = requests.withLock { $0.read.contains(type.identifier) || $0.share.contains(type.identifier) }
            guard requested else {
                throw HKError(
                    .errorAuthorizationNotDetermined,
                    message: "Authorization not determined for \(type.identifier): call requestAuthorization first")
            }
            return policy.allowsReading(type)
        }

        func store() throws -> any MutableHealthStore { try backend.get() }

        // MARK: Queries

        /// Runs `query` on a background task; its handler is called there.
        public func execute(_ query: HKQuery) {
            let task = Task.detached { [self] in await query.run(on: self) }
            query.state.withLock { state in
                if state.stopped { task.cancel() } else { state.task = task }
            }
        }

        /// Stops a running query: long-running ones deliver nothing more.
        public func stop(_ query: HKQuery) {
            let task = query.state.withLock { state -> Task<Void, Never>? in
                state.stopped = true
                return state.task
            }
            task?.cancel()
        }

        // MARK: Background delivery

        public func enableBackgroundDelivery(
            for type: HKObjectType, frequency: HKUpdateFrequency,
            withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
        ) {
            requests.withLock { $0.background[type.identifier] = frequency }
            DispatchQueue.global().async { completion(true, nil) }
        }

        public func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {
            requests.withLock { $0.background[type.identifier] = frequency }
        }

        public func disableBackgroundDelivery(
            for type: HKObjectType, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
        ) {
            requests.withLock { $0.background[type.identifier] = nil }
            DispatchQueue.global().async { completion(true, nil) }
        }

        public func disableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
            requests.withLock { $0.background = [:] }
            DispatchQueue.global().async { completion(true, nil) }
        }

        // MARK: Units

        /// The unit HealthKit keeps each type in (metric: a phone would follow the locale).
        public func preferredUnits(
            for quantityTypes: Set<HKQuantityType>,
            completion: @escaping @Sendable ([HKQuantityType: HKUnit], (any Error)?) -> Void
        ) {
            let units = preferredUnits(quantityTypes)
            DispatchQueue.global().async { completion(units.0, units.1) }
        }

        public func preferredUnits(for quantityTypes: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
            let (units, error) = preferredUnits(quantityTypes)
            if let error { throw error }
            return units
        }

        private func preferredUnits(_ types: Set<HKQuantityType>) -> ([HKQuantityType: HKUnit], HKError?) {
            var units: [HKQuantityType: HKUnit] = [:]
            for type in types {
                guard let unit = type.canonicalUnit else {
                    return ([:], HKError(.errorInvalidArgument, message: "no preferred unit for \(type.identifier)"))
                }
                units[type] = unit
            }
            return (units, nil)
        }
    }

    /// How often background delivery may wake the app.
    public enum HKUpdateFrequency: Int, Sendable {
        case immediate = 1
        case hourly = 2
        case daily = 3
        case weekly = 4
    }
#endif
