import Foundation
import HealthCore
import HealthImport
import HealthPostgres
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Seams for the findings of issue 32 about deleting a person (H1, H2): a pause a test
/// releases, users' stores that pause where told, and a token checked before its user was
/// deleted.

/// One pause: the paused task reports its arrival and waits for the release.
actor Pause {
    private var arrived = false
    private var released = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Where the seam pauses: returns once released (at once when it was already).
    func arrive() async {
        arrived = true
        guard !released else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        released = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }

    var hasArrived: Bool { arrived }

    /// Whether something arrived within `seconds` (a request that failed before the seam
    /// never arrives: the test fails instead of hanging).
    ///
    /// The last look comes after the deadline. On 2 cores the suite's other tests can hold
    /// every thread of the pool for longer than the wait; this task then wakes past its
    /// deadline while the task it waits for was ready to arrive all along, so it lets that
    /// task run before it answers.
    nonisolated func waitForArrival(seconds: Double = 120) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if await hasArrived { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        for _ in 0..<100 {
            if await hasArrived { return true }
            await Task.yield()
        }
        return false
    }
}

/// Users' stores that pause the next use of an armed user's store: before it is opened
/// (where the ingest of H1 re-created a deleted person's file) or right after a write to it
/// has committed.
final class PausingHealthStores: UserHealthStores, @unchecked Sendable {
    enum Point: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case beforeOpen, afterApply

        var testDescription: String { rawValue }
    }

    let inner: any UserHealthStores
    let point: Point
    private let lock = NSLock()
    private var pauses: [String: Pause] = [:]

    init(_ inner: any UserHealthStores, at point: Point) {
        self.inner = inner
        self.point = point
    }

    /// The next ``store(for:)`` of `userID` pauses at ``point`` until the pause is released.
    func arm(_ userID: String) -> Pause {
        let pause = Pause()
        lock.withLock { pauses[userID] = pause }
        return pause
    }

    func store(for userID: String) async throws -> any UserHealthStore {
        let pause = lock.withLock { pauses.removeValue(forKey: userID) }
        guard let pause else { return try await inner.store(for: userID) }
        switch point {
        case .beforeOpen:
            await pause.arrive()
            return try await inner.store(for: userID)
        case .afterApply:
            return PausingStore(inner: try await inner.store(for: userID), pause: pause)
        }
    }

    func deleteStore(for userID: String) async throws -> (samples: Int, bytes: Int64) {
        try await inner.deleteStore(for: userID)
    }

    func usersWithDirtySpans() async throws -> [String] { try await inner.usersWithDirtySpans() }
}

/// A user's store that hands every call to `inner`: seams change only what they need.
protocol ForwardingUserHealthStore: UserHealthStore {
    var inner: any UserHealthStore { get }
}

extension ForwardingUserHealthStore {
    var queries: any MutableHealthStore { inner.queries }
    var appData: any AppDataRepository { inner.appData }

    func apply(
        _ writes: [HealthWrite], check: @escaping @Sendable (HealthWriteReport) throws -> Void
    ) async throws -> HealthWriteReport {
        try await inner.apply(writes, check: check)
    }

    func storedSpan() async throws -> DateInterval? { try await inner.storedSpan() }

    func markDirty(_ intervals: [DateInterval], zone: String?) async throws {
        try await inner.markDirty(intervals, zone: zone)
    }
    func dirtySpans() async throws -> [DirtySpan] { try await inner.dirtySpans() }
    func clearDirty(ids: [Int64]) async throws { try await inner.clearDirty(ids: ids) }
    func withDaysLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withDaysLock(body)
    }

    func importExport(
        path: String, options: HealthImporter.Options, progress: @escaping @Sendable (ImportProgress) -> Void
    ) async throws -> ImportSummary {
        try await inner.importExport(path: path, options: options, progress: progress)
    }
}

/// A user's store whose writes pause once committed.
struct PausingStore: ForwardingUserHealthStore {
    let inner: any UserHealthStore
    let pause: Pause

    func apply(
        _ writes: [HealthWrite], check: @escaping @Sendable (HealthWriteReport) throws -> Void
    ) async throws -> HealthWriteReport {
        let report = try await inner.apply(writes, check: check)
        await pause.arrive()
        return report
    }
}

/// Users as stored, except that one token still authenticates its user after the user was
/// deleted: a request that passed the token check just before the deletion.
struct StaleAuthentication: UserRepository {
    let inner: any UserRepository
    let token: BearerToken
    let user: User

    func addUser(name: String, scopes: Set<Scope>) async throws -> (User, BearerToken) {
        try await inner.addUser(name: name, scopes: scopes)
    }

    func addToken(
        userID: String, name: String, readTypes: Set<HealthDataCategory>, writeTypes: Set<HealthDataCategory>
    ) async throws -> (APIToken, BearerToken) {
        try await inner.addToken(userID: userID, name: name, readTypes: readTypes, writeTypes: writeTypes)
    }

    func tokens(userID: String) async throws -> [APIToken] { try await inner.tokens(userID: userID) }
    func revokeToken(userID: String, name: String) async throws -> Bool {
        try await inner.revokeToken(userID: userID, name: name)
    }

    func users() async throws -> [User] { try await inner.users() }
    func revoke(name: String) async throws -> Bool { try await inner.revoke(name: name) }
    func deleteUser(id: String) async throws -> [String: Int] { try await inner.deleteUser(id: id) }
    func userExists(id: String) async throws -> Bool { try await inner.userExists(id: id) }
    func homeZone(userID: String) async throws -> String? { try await inner.homeZone(userID: userID) }
    func setHomeZone(_ zone: String, userID: String, onlyIfUnset: Bool) async throws -> String? {
        try await inner.setHomeZone(zone, userID: userID, onlyIfUnset: onlyIfUnset)
    }

    func authenticate(_ token: BearerToken) async throws -> User? {
        if token == self.token { return user }
        return try await inner.authenticate(token)
    }
}

extension ServerHarness {
    /// This harness's stores as the repositories of a server of the test's own, the users'
    /// stores passed through `wrap` (a seam).
    func repositories(
        wrappingStores wrap: (any UserHealthStores) -> any UserHealthStores = { $0 }
    ) -> ServerRepositories {
        let inner: any UserHealthStores =
            samples.map(PostgresUserHealthStores.init(database:)) ?? SQLiteUserHealthStores(folder: folder.path)
        return ServerRepositories(store: store, healthStores: wrap(inner), dataFolder: folder.path)
    }

    /// The files of `users/` whose name starts with `userID` (a store and its companions).
    func storeFiles(of userID: String) -> [String] {
        let users = folder.appendingPathComponent("users").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: users)) ?? []).filter { $0.hasPrefix(userID) }
    }

    /// The files in `uploads/` (none when the folder does not exist).
    func uploadFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("uploads").path)) ?? []
    }

    /// Headers of `DELETE /v1/me` for the user of `token`.
    func deletionHeaders(_ token: String) -> HTTPFields {
        var fields = headers(token)
        fields[.init("Confirm-Delete")!] = "all-my-data"
        return fields
    }

    /// `count` heart-rate samples a minute apart, as the body of `POST /v1/samples`.
    static func heartRateBatch(_ count: Int) -> String {
        let t0 = Date(timeIntervalSince1970: 1_717_200_000)
        let formatter = ISO8601DateFormatter()
        let samples = (0..<count).map { index in
            let start = formatter.string(from: t0.addingTimeInterval(Double(index) * 60))
            let fields = #""end": "\#(start)", "value": \#(60 + index % 40), "unit": "count/min", "source": "Watch""#
            return #"{"type": "HKQuantityTypeIdentifierHeartRate", "start": "\#(start)", "# + fields + "}"
        }
        return #"{"samples": ["# + samples.joined(separator: ",") + "]}"
    }
}
