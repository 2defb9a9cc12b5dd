import Foundation
import HealthMetrics
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 34 §1/§5: one set of store options, the choice between the SQLite file and
/// PostgreSQL made once. Before, six commands took `--postgres` beside `--db` (the first
/// silently won), and export, snapshot, log, plan and coach took the SQLite file only.
/// (`scripts/check-postgres-cli` compares each command's output on both stores.)
@Suite struct I34StoreOptionsTests {
    static let url = "postgres://nobody@127.0.0.1:1/none"

    /// Every command that works on a health store of either kind takes `--postgres`, and
    /// says what it needs beside it before opening anything.
    @Test(arguments: [
        ["days"], ["sleep"], ["readiness"], ["samples", "--type", "steps"], ["changes", "--type", "steps"],
        ["import", "export.zip"], ["export", "csv", "--daily"], ["snapshot"], ["log"], ["plan", "list"],
        ["plan", "add", "Run", "--at", "2024-03-06T07:00"], ["plan", "start", "1"], ["coach"],
        ["bench", "accuracy", "--truth", "t.json"],
    ])
    func everyStoreCommandTakesPostgres(_ command: [String]) throws {
        let run = try CommandLine33.run(command + ["--postgres", Self.url])
        #expect(run.status == 64, "\(command): \(run.err)")
        #expect(run.err.contains("--postgres needs --user"), "\(command): \(run.err)")
    }

    /// Found attacking the store options: an import that failed into a new `--db` said
    /// "Created a new store" then "the store is unchanged", and left an empty store behind.
    @Test func aFailedWriteLeavesNoNewStore() throws {
        let folder = try CommandLine33.temporaryFolder("failed-import")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let broken = folder + "/export.xml"
        try Data("<HealthData><Record type=".utf8).write(to: URL(fileURLWithPath: broken))
        let store = folder + "/health.sqlite"
        let run = try CommandLine33.run(["import", broken, "--db", store, "--quiet"])
        #expect(run.status == 2, "\(run.err)")
        #expect(run.err.contains("Nothing was imported: the store is unchanged."), "\(run.err)")
        #expect(!run.err.contains("Created a new store"), "\(run.err)")
        for suffix in ["", "-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: store + suffix)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["export.xml"])
        let empty = try CommandLine33.run(["export", "csv", "--metrics", "", "--db", store])
        #expect(empty.status == 64)
        #expect(empty.err.contains("--metrics must name at least one metric"), "\(empty.err)")
    }

    /// A new store is built under a private name beside its path (docs/store.md §A new
    /// store): the summary named that file as the store, not the path it was moved to.
    @Test func aNewStoreIsNamedByItsPath() throws {
        let folder = try CommandLine33.temporaryFolder("new-store")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/health.sqlite"
        let run = try CommandLine33.run(["import", I33EdgesCommandTests.fixture, "--db", store])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasSuffix("Store: \(store)\n"), "\(run.out)")
        #expect(!run.out.contains(".building-"), "\(run.out)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["health.sqlite"])
    }

    /// Found attacking the private build: one a killed import left was never removed once
    /// the store existed (only a build looked for them); a dangling link as `--db` failed
    /// after the whole import ("a store appeared"), where it used to create the link's target.
    @Test func anAbandonedBuildGoesAndALinkIsFollowed() throws {
        let folder = try CommandLine33.temporaryFolder("abandoned")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/health.sqlite"
        #expect(try CommandLine33.run(["import", I33EdgesCommandTests.fixture, "--db", store, "--quiet"]).status == 0)
        let left = folder + "/.health.sqlite.building-4194305-ab12"
        try Data("x".utf8).write(to: URL(fileURLWithPath: left))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: left)
        let again = try CommandLine33.run(["import", I33EdgesCommandTests.fixture, "--db", store, "--quiet"])
        #expect(again.status == 0, "\(again.err)")
        #expect(!FileManager.default.fileExists(atPath: left))

        let link = folder + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder + "/target.sqlite")
        let linked = try CommandLine33.run(["import", I33EdgesCommandTests.fixture, "--db", link, "--quiet"])
        #expect(linked.status == 0, "\(linked.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/target.sqlite"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == folder + "/target.sqlite")
    }

    /// A new store is built privately: while the import runs only `.NAME.building-…` is in
    /// the folder, and SIGTERM removes it and says the store was not created.
    @Test(.timeLimit(.minutes(3))) func aNewStoreIsBuiltAsideAndASignalRemovesIt() async throws {
        let folder = try CommandLine33.temporaryFolder("signal")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = folder + "/export.xml"
        let synth = try CommandLine33.run(["synth", "--days", "60", "--heart-rate-per-hour", "120", "--out", export])
        #expect(synth.status == 0, "\(synth.err)")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        let process = Process()
        process.executableURL = try ChildProcess.binary()
        process.arguments = ["import", export, "--db", folder + "/health.sqlite", "--quiet"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var building: [String] = []
        while process.isRunning, building.isEmpty {
            // The build itself, not its `-journal`, `-wal` and `-shm` companions.
            let prefix = ".health.sqlite.building-\(process.processIdentifier)-"
            building = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
                $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("-")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/health.sqlite"), "nothing at the path during the build")
        process.terminate()
        process.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(building.count == 1, "the import ended before its build was seen: \(building) \(said)")
        #expect(process.terminationStatus == 130, "\(said)")
        #expect(said.contains("Interrupted: nothing was imported; the new store was not created."), "\(said)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == before)
    }

    @Test func dbAndPostgresTogetherAreRefused() throws {
        let run = try CommandLine33.run(["days", "--db", "/nonexistent/health.sqlite", "--postgres", Self.url, "--user", "u"])
        #expect(run.status == 64)
        #expect(run.err.contains("give --db or --postgres, not both"))
    }

    /// The commands that need the SQLite file itself do not offer `--postgres`.
    @Test(arguments: [["stats"], ["mcp"], ["dashboard"]])
    func fileOnlyCommandsRefusePostgres(_ command: [String]) throws {
        let run = try CommandLine33.run(command + ["--postgres", Self.url, "--user", "u"])
        #expect(run.status == 64)
        #expect(run.err.contains("Unknown option '--postgres'"), "\(command): \(run.err)")
    }
}

/// Found by attacking the store options: `healthpipe import` and `delete` on a server
/// user's store (`--postgres … --user ID`, or the SQLite server's `users/<id>.sqlite`) left
/// the server's stored days behind the samples — an import showed no days, a deletion kept
/// the deleted steps — until the server itself wrote for that user. Now they mark the days
/// dirty, and the server computes them before it answers.
@Suite struct I34CommandLineWritesReachServerDaysTests {
    static func steps(_ client: some TestClientProtocol, _ harness: ServerHarness) async throws -> [String: Int?] {
        try await client.execute(
            uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-03", method: .get, headers: harness.headers("alice")
        ) { response in
            #expect(response.status == .ok)
            let days = try NormalizedDailyMetrics.backendDecoder().decode(
                [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
            return Dictionary(uniqueKeysWithValues: days.map { ($0.localDate, $0.stepsNormalized) })
        }
    }

    @Test func anImportAndADeletionFromTheCommandLineReachTheServersDays() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let store = harness.folder.appendingPathComponent("users/\(alice).sqlite").path
        let export = harness.folder.appendingPathComponent("export.xml").path
        #expect(
            try CommandLine33.run(["synth", "--days", "3", "--start", "2024-06-01", "--seed", "3", "--out", export]).status == 0)
        let imported = try CommandLine33.run(["import", export, "--db", store, "--quiet"])
        #expect(imported.status == 0, "\(imported.err)")
        try await harness.app.test(.router) { client in
            let before = try await Self.steps(client, harness)
            #expect(before.keys.sorted() == ["2024-06-01", "2024-06-02", "2024-06-03"])
            #expect(before.values.allSatisfy { ($0 ?? 0) > 0 })
            let deleted = try CommandLine33.run([
                "delete", "--type", "steps", "--from", "2024-06-02", "--to", "2024-06-02", "--db", store, "--yes",
            ])
            #expect(deleted.status == 0, "\(deleted.err)")
            let after = try await Self.steps(client, harness)
            #expect(after["2024-06-01"] == before["2024-06-01"])
            #expect(after["2024-06-03"] == before["2024-06-03"])
            #expect((after["2024-06-02"] ?? nil) ?? 0 == 0)
        }
    }
}
