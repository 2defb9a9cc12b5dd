import Foundation
import HealthCore
import HealthExport
import HealthWire
import Testing

@testable import HealthImportReader

/// Issue 35 §6: `healthpipe workouts` lists a real export's walk with its own figures and
/// id, and `healthpipe export gpx` writes its route so that it reads back point for point.
@Suite struct I35WorkoutCommandsTests {
    @Test func theWalkListedAndItsRouteWrittenAsGPX() throws {
        let folder = try CommandLine33.temporaryFolder("workouts")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/health.sqlite"
        #expect(try CommandLine33.run(["import", I35WorkoutRouteTests.export, "--db", store, "--quiet"]).status == 0)

        let table = try CommandLine33.run(["workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-24"])
        #expect(table.status == 0, "\(table.err)")
        // The walk at 09:44 in Los Angeles: 34.18 min, 134.432 Cal and 1.402 mi as recorded.
        let line = try #require(table.out.split(separator: "\n").first { $0.contains("Walking") })
        #expect(line.contains("2020-02-24") && line.contains("09:44") && line.contains("34.2"))
        #expect(line.contains("134.43 Cal") && line.contains("1.40 mi") && line.contains("Watch"))

        let json = try CommandLine33.run([
            "workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-24", "--format", "json",
        ])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let list = try decoder.decode(WorkoutListAnswer.self, from: Data(json.out.utf8))
        let walk = try #require(list.workouts.first)
        #expect(list.workouts.count == 1 && walk.statistics.map(\.sum) == [134.432, 1.402, 56.4005])
        #expect(line.contains(walk.uuid.uuidString.lowercased()))

        // None of type running; none in the month before.
        let running = try CommandLine33.run([
            "workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-24", "--type", "running",
        ])
        #expect(running.status == 0 && running.out.isEmpty)
        #expect(running.err.contains("No running workouts from 2020-02-24 through 2020-02-24; 1 other workout in those days."))

        let file = folder + "/walk.gpx"
        let one = try CommandLine33.run(["export", "gpx", "--db", store, "--workout", walk.uuid.uuidString, "--out", file])
        #expect(one.status == 0, "\(one.err)")
        let points = try GPXReader.points(try Data(contentsOf: URL(fileURLWithPath: file)), name: "walk.gpx")
        #expect(points == (try I35WorkoutRouteTests.exportGPXPoints()))

        let routes = folder + "/routes"
        let many = try CommandLine33.run([
            "export", "gpx", "--db", store, "--from", "2020-02-01", "--to", "2020-02-29", "--out", routes,
        ])
        #expect(many.status == 0 && many.err.contains("Wrote 1 GPX file"), "\(many.err)")
        let written = try FileManager.default.contentsOfDirectory(atPath: routes)
        // The whole id: two workouts of a day may share the start of theirs (found attacking).
        #expect(written == ["2020-02-24_Walking_\(walk.uuid.uuidString.lowercased()).gpx"])
        // An activity that is none says which it might be; an empty range says where the workouts are.
        let walkType = try CommandLine33.run(["workouts", "--db", store, "--type", "walk"])
        #expect(walkType.status != 0 && walkType.err.contains("Walking"), "\(walkType.err)")
        let empty = try CommandLine33.run(["workouts", "--db", store, "--from", "2022-01-01", "--to", "2022-01-07"])
        #expect(empty.err.contains("The store's workouts run from 2020-02-24 to 2020-02-24"), "\(empty.err)")

        // Clock times in the zone the walk was recorded in (its HKTimeZone), or in --tz: never
        // the export's offset.
        let tokyo = try CommandLine33.run(
            ["workouts", "--db", store, "--from", "2020-02-25", "--to", "2020-02-25", "--tz", "Asia/Tokyo"])
        #expect(tokyo.out.contains("2020-02-25  02:44"), "\(tokyo.out)")
        let anyCase = try CommandLine33.run(
            ["workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-24", "--type", "hkworkoutactivitytypewalking"])
        #expect(anyCase.out.contains("Walking"))

        // One CSV row per workout, with its own figures in one unit a column (1.402 mi, 134.432
        // Cal and 217 cm recorded), its clock in its zone.
        let csv = try CommandLine33.run(
            ["export", "csv", "--workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-24"])
        #expect(csv.status == 0, "\(csv.err)")
        let rows = csv.out.split(separator: "\n").map(String.init)
        #expect(rows.first == WorkoutCSV.header.joined(separator: ","))
        #expect(rows.count == 2)
        let row = try #require(rows.last)
        #expect(
            row.hasPrefix(
                "\(walk.uuid.uuidString.lowercased()),2020-02-24T09:44:00-08:00,2020-02-24T10:18:11-08:00,Walking,34.18"))
        #expect(row.hasSuffix(",Watch,134.4,kcal,2.256,km,,,,2.2,m,no,America/Los_Angeles"), "\(row)")
        let miles = try CommandLine33.run([
            "export", "csv", "--workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-24", "--distance-unit", "mi",
        ])
        #expect(miles.out.hasSuffix(",Watch,134.4,kcal,1.402,mi,,,,7.1,ft,no,America/Los_Angeles\n"), "\(miles.out)")

        // Where a range's files cannot go is said plainly.
        let notAFolder = try CommandLine33.run(
            ["export", "gpx", "--db", store, "--from", "2020-02-01", "--to", "2020-02-29", "--out", file])
        #expect(notAFolder.status == 2 && notAFolder.err.contains("is a file, not a folder"), "\(notAFolder.err)")
        for out in ["", "-"] {
            let refused = try CommandLine33.run(
                ["export", "gpx", "--db", store, "--from", "2020-02-01", "--to", "2020-02-29", "--out", out])
            #expect(refused.status == 64, "\(out): \(refused.err)")
        }

        let unknown = try CommandLine33.run(["export", "gpx", "--db", store, "--workout", UUID().uuidString])
        #expect(unknown.status == 2 && unknown.err.contains("no workout with id"))
        let both = try CommandLine33.run(["export", "gpx", "--db", store, "--workout", walk.uuid.uuidString, "--last", "3"])
        #expect(both.status == 64)
    }
}
