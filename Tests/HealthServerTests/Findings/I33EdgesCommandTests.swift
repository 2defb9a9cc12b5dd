import Foundation
import HealthCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 33 §6, the rough edges a newcomer hits on the command line.
@Suite struct I33EdgesCommandTests {
    /// `--version` prints the build's version; the daily metrics' rules moved to `--norm`,
    /// and the old spelling says where they went.
    @Test(.timeLimit(.minutes(3))) func i33_edges_versionAndNorm() throws {
        let version = try CommandLine33.run(["--version"])
        #expect(version.status == 0 && version.out == HealthPipelineVersion.current + "\n", "\(version.err)")

        let folder = try CommandLine33.temporaryFolder("norm")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try CommandLine33.store(
            importing: CommandLine33.fixture("apple-health/rinoshiyo-apple-health-mcp-server/sample_export.xml"), in: folder)
        let day = ["--from", "2024-06-15", "--to", "2024-06-15", "--format", "jsonl", "--db", db]
        let v2 = try CommandLine33.run(["days", "--norm", "norm_v2"] + day)
        #expect(v2.status == 0 && v2.out.contains(#""normalization_version":"norm_v2""#), "\(v2.err)")
        let former = try CommandLine33.run(["days", "--version", "norm_v2"] + day)
        #expect(former.status != 0 && former.out.isEmpty)
        #expect(former.err.contains("the daily metrics' rules are chosen with --norm norm_v2"), "\(former.err)")
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    static var fixture: String {
        CommandLine33.fixture("apple-health/rinoshiyo-apple-health-mcp-server/sample_export.xml")
    }

    /// A store that cannot be written says its path and why in one line, exit 2: no
    /// "SQLite error 14", no Foundation error dump.
    @Test(.timeLimit(.minutes(3))) func i33_edges_anUnwritableStoreSaysThePathAndWhy() throws {
        let folder = try CommandLine33.temporaryFolder("unwritable")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A file where a folder should be.
        _ = FileManager.default.createFile(atPath: folder + "/plain", contents: Data("x".utf8))
        let underFile = folder + "/plain/health.sqlite"
        let notAFolder = try CommandLine33.run(["import", Self.fixture, "--db", underFile])
        #expect(notAFolder.status == 2)
        #expect(notAFolder.err == "error: cannot open the store at \(underFile): \(folder)/plain is not a folder\n")
        // A folder this user may not write in.
        let locked = folder + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked) }
        let store = locked + "/sub/health.sqlite"
        for arguments in [["log", "--energy", "4", "--db", store], ["import", Self.fixture, "--db", store]] {
            let denied = try #require(try CommandLine33.runUnprivileged(arguments), "no way to run unprivileged")
            #expect(denied.status == 2, "\(arguments): \(denied.err)")
            #expect(denied.err == "error: cannot open the store at \(store): permission denied\n", "\(arguments)")
        }
    }

    /// Commands that only read never create a store (a mistyped --db is an error); those
    /// that write create one and say so.
    @Test(.timeLimit(.minutes(3))) func i33_edges_onlyWritingCommandsCreateAStoreAndSaySo() throws {
        let folder = try CommandLine33.temporaryFolder("typo")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let typo = folder + "/helth.sqlite"
        for arguments in [["plan", "list"], ["log"], ["log", "--date", "2024-06-15"], ["plan", "start", "1"], ["stats"]] {
            let run = try CommandLine33.run(arguments + ["--db", typo])
            #expect(run.status == 2, "\(arguments)")
            #expect(run.err == "error: no store at \(typo); run `healthpipe import` first.\n", "\(arguments): \(run.err)")
            #expect(!FileManager.default.fileExists(atPath: typo), "\(arguments) created \(typo)")
        }
        for (arguments, name) in [
            (["coach", "--kind", "check-in"], "coach.sqlite"), (["log", "--mood", "3"], "log.sqlite"),
            (["plan", "add", "Tempo run", "--at", "2030-01-01T18:00"], "plan.sqlite"),
            (["import", Self.fixture], "import.sqlite"),
        ] {
            let path = folder + "/" + name
            let first = try CommandLine33.run(arguments + ["--db", path])
            #expect(first.status == 0, "\(arguments): \(first.err)")
            #expect(first.err.hasPrefix("Created a new store at \(path).\n"), "\(arguments): \(first.err)")
            let again = try CommandLine33.run(arguments + ["--db", path])
            #expect(!again.err.contains("Created a new store"), "\(arguments)")
        }
    }

    /// A port another program holds: one line naming it, exit 2, and no banner claiming to
    /// listen.
    @Test(.timeLimit(.minutes(3))) func i33_edges_aBusyPortIsNamed() async throws {
        let folder = try CommandLine33.temporaryFolder("port")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (listener, port) = try FaultProxy.listenOnLoopback()
        defer { close(listener) }
        let log = URL(fileURLWithPath: folder + "/serve.log")
        let serve = try ChildProcess(["serve", "--server-db", folder + "/server.sqlite", "--port", "\(port)"], log: log)
        let status = await serve.wait(seconds: 60)
        serve.kill()
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(status == 2, "\(said)")
        #expect(said.contains("error: port \(port) is in use on 127.0.0.1"), "\(said)")
        #expect(!said.contains("healthpipe serve:") && !said.contains("listening"), "\(said)")
    }

    /// Plain HTTP on every interface warns; on loopback it does not.
    @Test(.timeLimit(.minutes(3))) func i33_edges_plainHTTPToOtherMachinesWarns() async throws {
        let folder = try CommandLine33.temporaryFolder("plain")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (host, warns) in [("0.0.0.0", true), ("127.0.0.1", false)] {
            let log = URL(fileURLWithPath: folder + "/\(host).log")
            let port = try FaultProxy.freePort()
            let serve = try ChildProcess(
                ["serve", "--host", host, "--port", "\(port)", "--server-db", folder + "/\(host)/server.sqlite"], log: log)
            defer { serve.kill() }
            let deadline = Date().addingTimeInterval(120)
            while serve.isRunning, Date() < deadline {
                if (try? String(contentsOf: log, encoding: .utf8))?.contains("healthpipe serve:") == true { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            try #require(serve.isRunning, "\(said)")
            #expect(said.contains("warning: serving plain HTTP on \(host), reachable from other machines") == warns, "\(said)")
            serve.terminate()
            #expect(await serve.wait(seconds: 30) != nil)
        }
    }

    /// Stores, CSV exports and the sync state folder are the user's alone: 0600 files in
    /// 0700 folders, whichever command made them.
    @Test(.timeLimit(.minutes(3))) func i33_edges_storesExportsAndStateArePrivate() throws {
        let folder = try CommandLine33.temporaryFolder("private")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let logged = folder + "/made/by/log/health.sqlite"
        #expect(try CommandLine33.run(["log", "--mood", "3", "--db", logged]).status == 0)
        #expect(try Self.mode(folder + "/made") == 0o700 && Self.mode(folder + "/made/by/log") == 0o700)
        #expect(try Self.mode(logged) == 0o600)
        let csv = folder + "/exports/new/"
        #expect(try CommandLine33.run(["export", "csv", "--daily", "--db", logged, "--out", csv]).status == 0)
        #expect(try Self.mode(folder + "/exports") == 0o700 && Self.mode(csv) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: csv)
        #expect(files.count == 1)
        for file in files { #expect(try Self.mode(csv + file) == 0o600, "\(file)") }
        // The sync state: made before the (unreachable) server is asked.
        let state = folder + "/state/healthpipe/sync"
        let enrol = try CommandLine33.run(
            ["devices", "enrol", "--server", "http://127.0.0.1:\(try FaultProxy.freePort())", "--state", state, "--name", "t"],
            environment: ["HEALTHPIPE_TOKEN": "hp_unused"])
        #expect(enrol.status != 0)
        #expect(try Self.mode(folder + "/state") == 0o700 && Self.mode(state) == 0o700)
        #expect(try Self.mode(state + "/sync.sqlite") == 0o600)
    }
}
