import Foundation
import HealthCore
import HealthSQLite
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Finding L10 (issue 32), the users' stores: every SQLite store the server opened stayed
/// open for good, a file descriptor and a page cache per user ever seen. Now at most
/// `maxOpen` are kept; the least recently used is let go, closed once no request holds it,
/// and opened again on the next request.
@Suite struct L10StoreCacheTests {
    static func users(_ count: Int) -> [String] { (0..<count).map { _ in UUID().uuidString.lowercased() } }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-stores-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Whether `condition` holds within 60 s (a store let go is closed on the thread pool,
    /// which the suite's other tests can hold for seconds on 2 cores).
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test func l10_openStoresStayBoundedAndAClosedOneReopens() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stores = SQLiteUserHealthStores(folder: folder.path, maxOpen: 2)
        let users = Self.users(5)
        weak var first: HealthDatabase?
        do {
            let database = try await stores.database(for: users[0])
            try await database.markDirty([DirtySpan.everything], zone: "UTC")
            first = database
        }
        #expect(first != nil)
        for user in users.dropFirst() {
            _ = try await stores.database(for: user)
            #expect(await Self.eventually { stores.openCount <= 2 }, "\(stores.openCount) open")
        }
        // Let go when the third was opened, and closed: nothing held it.
        #expect(await Self.eventually { first == nil })
        // Opened again on the next request, its data there.
        let reopened = try await stores.database(for: users[0])
        #expect(try await reopened.dirtySpans().count == 1)
        #expect(await Self.eventually { stores.openCount <= 2 })
    }

    @Test func l10_aStoreARequestHoldsStaysOpenAndIsHandedOutAgain() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stores = SQLiteUserHealthStores(folder: folder.path, maxOpen: 2)
        let users = Self.users(4)
        let held = try await stores.database(for: users[0])
        for user in users.dropFirst() { _ = try await stores.database(for: user) }
        // Two kept, and the one a request holds (let go, not closed).
        #expect(await Self.eventually { stores.openCount == 3 }, "\(stores.openCount) open")
        let again = try await stores.database(for: users[0])
        #expect(again === held)
        try await again.markDirty([DirtySpan.everything], zone: "UTC")
        #expect(try await held.dirtySpans().count == 1)
    }

    /// A user's deletion finds a store that was let go but is still held, and removes its files.
    @Test func l10_aStoreLetGoIsDeletedWithItsUser() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stores = SQLiteUserHealthStores(folder: folder.path, maxOpen: 1)
        let users = Self.users(2)
        let held = try await stores.database(for: users[0])
        _ = try await stores.database(for: users[1])
        _ = try await stores.deleteStore(for: users[0])
        #expect(!FileManager.default.fileExists(atPath: held.path))
        #expect(await Self.eventually { stores.openCount == 1 })
    }
}
