import Foundation
import GRDB
import HealthCore
import Testing

@testable import HealthSQLite

/// Issue 37 §1: a new store is written beside its path, without a journal, and moved into
/// place when complete (`PrivateStoreBuild`); a build that fails leaves nothing.
@Suite struct I37PrivateStoreBuildTests {
    static func open(_ path: String, _ configuration: HealthDatabase.Configuration) throws -> HealthDatabase {
        try HealthDatabase(path: path, configuration: configuration)
    }

    /// Every sample row, for comparing two stores.
    static func samples(_ path: String) throws -> [[DatabaseValue]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sample ORDER BY anchor").map { Array($0.databaseValues) }
        }
    }

    static func leftovers(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".building-") }.sorted()
    }

    @Test func aNewStoreIsBuiltBesideItsPathAndMovedWhenComplete() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("health.sqlite").path
        let export = try await Fixtures.overlappingExport(
            in: folder, "export.xml", start: "2024-02-10", days: 20, heartRatePerHour: 60)
        let summary = try await PrivateStoreBuild.run(at: path, open: Self.open) { database in
            #expect(database.path != path)
            #expect(URL(fileURLWithPath: database.path).lastPathComponent.hasPrefix(".health.sqlite.building-\(getpid())-"))
            #expect(!FileManager.default.fileExists(atPath: path), "nothing is at the path before the build is complete")
            return try await Fixtures.importExport(export, into: database)
        }
        #expect(try Self.leftovers(folder) == [])
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        let plainPath = folder.appendingPathComponent("plain.sqlite").path
        let plain = try HealthDatabase(path: plainPath)
        let plainSummary = try await Fixtures.importExport(export, into: plain)
        try plain.close()
        #expect(summary.totalAdded == plainSummary.totalAdded)
        #expect(summary.totalAdded > 1_000)
        #expect(try Self.samples(path) == Self.samples(plainPath))

        let built = try HealthDatabase(path: path)
        #expect(try Fixtures.snapshot(built) == Fixtures.snapshot(plain.reopened()))
        let (mode, integrity, references) = try await built.pool.read { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"), try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
            )
        }
        #expect(mode == "wal" && integrity == ["ok"] && references == 0)
        // The same export again is recognised in the moved store.
        let again = try await Fixtures.importExport(export, into: built)
        #expect(again.totalAdded == 0)
    }

    /// An import into a private build writes no log; one into a store does (so the check
    /// can fail).
    @Test func aPrivateBuildsImportHasNoJournal() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = I37SampleLayoutTests.records
        try await PrivateStoreBuild.run(at: folder.appendingPathComponent("new.sqlite").path, open: Self.open) {
            database in
            try database.importWrite { writer in
                for record in records { try writer.write(record) }
                #expect(!FileManager.default.fileExists(atPath: database.path + "-wal"))
                #expect(try String.fetchOne(writer.db, sql: "PRAGMA journal_mode") == "off")
                #expect(try Int.fetchOne(writer.db, sql: "PRAGMA synchronous") == 0)
            }
            #expect(try await database.pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        }
        let store = try HealthDatabase(path: folder.appendingPathComponent("store.sqlite").path)
        try store.importWrite { writer in
            for record in records { try writer.write(record) }
            #expect(FileManager.default.fileExists(atPath: store.path + "-wal"))
        }
        let built = try Self.samples(folder.appendingPathComponent("new.sqlite").path)
        let stored = try Self.samples(store.path)
        #expect(!built.isEmpty && built == stored)
    }

    @Test func aFailedBuildLeavesNothing() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("health.sqlite").path
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await PrivateStoreBuild.run(at: path, open: Self.open) { database in
                try database.importWrite { writer in
                    for record in I37SampleLayoutTests.records { try writer.write(record) }
                    throw Refused()
                }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    /// A store another process created at the path meanwhile is neither replaced nor written.
    @Test func aStoreThatAppearsDuringTheBuildIsLeftAsItIs() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("health.sqlite").path
        await #expect(throws: PrivateStoreBuild.Failure.self) {
            try await PrivateStoreBuild.run(at: path, open: Self.open) { database in
                try database.importWrite { writer in for record in I37SampleLayoutTests.records { try writer.write(record) } }
                try Data("theirs".utf8).write(to: URL(fileURLWithPath: path))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("theirs".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["health.sqlite"])
    }

    /// A build whose process is gone and whose file has not changed for a minute is removed
    /// by the next build of the store; a live one, a recent one, or another store's are kept.
    @Test func anAbandonedBuildIsRemovedOnceItsProcessIsGone() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Above Linux's largest pid (2^22): no process has it.
        let gone: pid_t = 4_194_305
        #expect(kill(gone, 0) == -1 && errno == ESRCH)
        let names = [
            ".health.sqlite.building-\(gone)-1a", ".health.sqlite.building-\(gone)-1a-wal",
            ".health.sqlite.building-\(gone)-2b", ".health.sqlite.building-\(getpid())-3c",
            ".other.sqlite.building-\(gone)-4d",
            // Names this type does not give, though they start alike (attack on the cleanup):
            // another store's live build, a signed pid, a capital hex digit.
            ".health.sqlite.building-\(gone)-5e.building-\(getpid())-6f", ".health.sqlite.building-+\(gone)-7a",
            ".health.sqlite.building-\(gone)-8B",
        ]
        for name in names {
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        let minutesAgo = Date().addingTimeInterval(-120)
        for name in [names[0], names[3], names[4], names[5], names[6], names[7]] {
            try FileManager.default.setAttributes(
                [.modificationDate: minutesAgo], ofItemAtPath: folder.appendingPathComponent(name).path)
        }
        PrivateStoreBuild.removeAbandoned(beside: folder.appendingPathComponent("health.sqlite").path)
        #expect(try Self.leftovers(folder) == [names[2], names[3], names[4], names[5], names[6], names[7]].sorted())
    }

    /// Paths a private build cannot stand in for: the caller creates those in place.
    @Test func onlyAMissingPlainNameIsBuiltPrivately() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("health.sqlite").path
        #expect(PrivateStoreBuild.canBuild(at: missing))
        #expect(PrivateStoreBuild.canBuild(at: folder.appendingPathComponent("new/health.sqlite").path))
        #expect(!PrivateStoreBuild.canBuild(at: missing + "/"))
        let dangling = folder.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: missing)
        #expect(!PrivateStoreBuild.canBuild(at: dangling))
        _ = FileManager.default.createFile(atPath: missing, contents: Data())
        #expect(!PrivateStoreBuild.canBuild(at: missing))
        #expect(PrivateStoreBuild.canBuild(at: folder.appendingPathComponent(String(repeating: "a", count: 220)).path))
        #expect(!PrivateStoreBuild.canBuild(at: folder.appendingPathComponent(String(repeating: "a", count: 240)).path))
    }
}

extension HealthDatabase {
    /// The same file opened again (after ``close()``).
    fileprivate func reopened() throws -> HealthDatabase { try HealthDatabase(path: path) }
}
