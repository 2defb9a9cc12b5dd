import Foundation
import Testing

/// Issue 33 §5, names on the command line: `samples`, `changes`, `delete` and `export csv`
/// take the short names and the HealthKit identifiers from one table; a wrong name
/// (`StepCount`, `HeartRate`, a typo) is an error naming the closest, never an empty answer
/// with exit 0.
@Suite struct I33NamesCommandTests {
    @Test(.timeLimit(.minutes(3))) func i33_names_theCommandsTakeOneSetOfNames() throws {
        let folder = try CommandLine33.temporaryFolder("names")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try CommandLine33.store(
            importing: CommandLine33.fixture("apple-health/rinoshiyo-apple-health-mcp-server/sample_export.xml"), in: folder)
        func run(_ arguments: [String]) throws -> CommandLine33.Run { try CommandLine33.run(arguments + ["--db", db]) }

        let heartByID = try run(["samples", "--type", "HKQuantityTypeIdentifierHeartRate"])
        #expect(heartByID.status == 0 && heartByID.out.contains("HKQuantityTypeIdentifierHeartRate"))
        #expect(try run(["samples", "--type", "heart_rate"]).out == heartByID.out)
        let stepsByID = try run(["changes", "--type", "HKQuantityTypeIdentifierStepCount"])
        #expect(stepsByID.status == 0 && stepsByID.out.contains("HKQuantityTypeIdentifierStepCount"))
        #expect(try run(["changes", "--type", "steps"]).out == stepsByID.out)
        // A type beyond the table, named by the store that holds it.
        let mood = try run(["samples", "--type", "state_of_mind"])
        #expect(mood.status == 0 && mood.out.contains("HKCategoryTypeIdentifierStateOfMind"), "\(mood.err)")
        // The CSV export takes identifiers too: the same rows.
        let csv = try run(["export", "csv", "--metrics", "steps", "--all-dates"])
        #expect(csv.status == 0 && csv.out.contains(",Steps,100,steps"))
        #expect(try run(["export", "csv", "--metrics", "HKQuantityTypeIdentifierStepCount", "--all-dates"]).out == csv.out)

        for (arguments, name, closest) in [
            (["samples", "--type", "StepCount"], "StepCount", "steps (HKQuantityTypeIdentifierStepCount)"),
            (["changes", "--type", "HeartRate"], "HeartRate", "heart_rate (HKQuantityTypeIdentifierHeartRate)"),
            (
                ["delete", "--type", "stpes", "--from", "2024-06-15", "--to", "2024-06-15", "--yes"], "stpes",
                "steps (HKQuantityTypeIdentifierStepCount)"
            ),
        ] {
            let wrong = try run(arguments)
            #expect(wrong.status != 0 && wrong.out.isEmpty, "\(arguments)")
            #expect(wrong.err.contains("unknown type '\(name)'; did you mean \(closest), or "), "\(wrong.err)")
        }
        let wrongMetric = try run(["export", "csv", "--metrics", "StepCount", "--all-dates"])
        #expect(wrongMetric.status != 0 && wrongMetric.err.contains("did you mean steps (HKQuantityTypeIdentifierStepCount)"))
        // Nothing was deleted by the misspelt delete.
        #expect(try run(["changes", "--type", "steps"]).out == stepsByID.out)
    }
}
