import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Testing

/// Issue 34 §1: the server's storage is opened in one place, `ServerStorage.open`, from a
/// location; the server sees only the records port (HealthServer imports no database).
@Suite struct I34ServerStorageTests {
    /// `.sqlite`: the records in the named file, each user's samples in a file of their own
    /// under `dataFolder/users`, released by `close()` (the files can then be opened again).
    @Test func anSQLiteLocationKeepsRecordsAndSamplesWhereItSays() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-i34-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("records/server.sqlite").path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let location = ServerStoreLocation.sqlite(path: path, dataFolder: folder.appendingPathComponent("data").path)
        let storage = try await ServerStorage.open(location)
        let (user, _) = try await storage.records.addUser(name: "ada", scopes: [.read, .write])
        let samples = SyncRouteTests.samples(3).map(HealthRecord.sample)
        let report = try await storage.healthStores.store(for: user.id).apply([.records(samples)])
        #expect(report.added == 3)
        #expect(storage.records.sharedImportQueue == nil)
        await storage.close()

        #expect(FileManager.default.fileExists(atPath: path))
        let userFile = folder.appendingPathComponent("data/users/\(user.id).sqlite").path
        #expect(FileManager.default.fileExists(atPath: userFile))
        let reopened = try await ServerStorage.open(location)
        #expect(try await reopened.records.users().map(\.name) == ["ada"])
        let stored = try await reopened.healthStores.store(for: user.id).queries.samples(
            of: SyncRouteTests.samples(1)[0].type, overlapping: DateInterval(start: .distantPast, end: .distantFuture))
        #expect(stored.count == 3)
        await reopened.close()
    }

    /// A user id that could name another file is refused before any file is made.
    @Test func anSQLiteStoreRefusesAUserIDThatIsNotAUUID() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-i34-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = try await ServerStorage.open(
            .sqlite(path: folder.appendingPathComponent("server.sqlite").path, dataFolder: folder.path))
        await #expect(throws: InvalidUserID.self) { _ = try await storage.healthStores.store(for: "../server") }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("users").path))
        await storage.close()
    }
}
