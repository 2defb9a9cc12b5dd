import Foundation
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
