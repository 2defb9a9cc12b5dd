import Foundation
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Testing

/// Finding M5 (issue 32), files: the server's data folder and files, the local store and
/// CSV exports were world-readable. `healthpipe` runs with umask 077 (0700 folders, 0600
/// files) and `serve` makes an older data folder private.
@Suite struct M5FilePermissionTests {
    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func m5_anOlderDataFolderIsMadePrivate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hp-m5-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/users", withIntermediateDirectories: true)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/users")
        _ = manager.createFile(atPath: folder + "/users/a.sqlite", contents: Data([1]), attributes: [.posixPermissions: 0o644])
        _ = manager.createFile(atPath: folder + "/server.sqlite", contents: Data([1]), attributes: [.posixPermissions: 0o644])
        try DataFolderPermissions.restrict(folder: folder, files: [folder + "/server.sqlite"])
        #expect(try Self.mode(folder) == 0o700)
        #expect(try Self.mode(folder + "/users") == 0o700)
        #expect(try Self.mode(folder + "/users/a.sqlite") == 0o600)
        #expect(try Self.mode(folder + "/server.sqlite") == 0o600)
    }

    @Test func m5_theToolCreatesPrivateStoresAndExports() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hp-m5-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Fixtures/apple-health/rinoshiyo-apple-health-mcp-server/sample_export.xml")
        let store = folder + "/new/health.sqlite"
        _ = try ChildProcess.output(["import", export.path, "--db", store])
        #expect(try Self.mode(folder + "/new") == 0o700)
        #expect(try Self.mode(store) == 0o600)
        try FileManager.default.createDirectory(atPath: folder + "/csv", withIntermediateDirectories: true)
        _ = try ChildProcess.output(["export", "csv", "--db", store, "--all-metrics", "--out", folder + "/csv"])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/csv")
        #expect(!files.isEmpty)
        for file in files { #expect(try Self.mode(folder + "/csv/" + file) == 0o600, "\(file)") }
        _ = try ChildProcess.output(["users", "add", "alice", "--server-db", folder + "/server/server.sqlite"])
        #expect(try Self.mode(folder + "/server/server.sqlite") == 0o600)
    }
}
