import Foundation
import HealthSQLite
import Testing

/// Issue 33 §6: a store that cannot be opened says its path and why, in words.
@Suite struct I33StoreAccessTests {
    @Test func i33_edges_aStoreThatCannotBeOpenedSaysWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hp-i33-access-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func explained(_ path: String) -> String? {
            do {
                _ = try HealthDatabase(path: path)
                return nil
            } catch {
                return StoreAccessError.explaining(error, path: path)?.description
            }
        }
        // A file on the way.
        _ = FileManager.default.createFile(atPath: folder + "/plain", contents: Data("x".utf8))
        #expect(
            explained(folder + "/plain/sub/health.sqlite")
                == "cannot open the store at \(folder)/plain/sub/health.sqlite: \(folder)/plain is not a folder")
        // A folder in its place.
        #expect(
            explained(folder)
                == "cannot open the store at \(folder): it is a folder; give the store's file, e.g. \(folder)/health.sqlite")
        // Something that is not SQLite.
        _ = FileManager.default.createFile(
            atPath: folder + "/notes.txt", contents: Data(String(repeating: "notes ", count: 200).utf8))
        #expect(explained(folder + "/notes.txt") == "cannot open the store at \(folder)/notes.txt: not a SQLite database")
        // A store that opens has no problem.
        #expect(explained(folder + "/fine/health.sqlite") == nil)
        #expect(StoreAccessError.problem(at: folder + "/fine/health.sqlite") == nil)
    }
}
