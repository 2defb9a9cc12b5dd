import Foundation
import HealthWire
import Testing

/// `healthpipe workouts` and the CSV print a workout's id in lower case; `delete` printed the
/// same id in upper case, so that a person searching one output for the other's id missed it.
@Suite struct I37IdCaseTests {
    @Test func deleteNamesIdsAsTheListsDo() throws {
        let (folder, store) = try CommandLine33.store(importing: I37WorkoutHeartRecordedTests.export, "id-case")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = try CommandLine33.run(["workouts", "--db", store, "--from", "2021-06-14", "--format", "json"])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let id = try #require(try decoder.decode(WorkoutListAnswer.self, from: Data(list.out.utf8)).workouts.first?.uuid)
        let lower = id.uuidString.lowercased()
        let unknown = UUID().uuidString.lowercased()
        let deleted = try CommandLine33.run(["delete", "--db", store, "--uuid", lower, "--uuid", unknown, "--yes"])
        #expect(deleted.status == 0, "\(deleted.err)")
        #expect(deleted.out.contains("  deleted \(lower)") && deleted.out.contains("  unknown \(unknown) "), "\(deleted.out)")
    }
}
