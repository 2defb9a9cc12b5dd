import Foundation
import Testing

/// Issue 34 §5: each flag name has exactly one meaning across every command. Before,
/// `--db` named a health store in most commands and the server's file in `serve`, `users`,
/// `migrate` and `bench load`; `sync --tz` was the server's zone for days, elsewhere `--tz`
/// reads a command's own dates; `users token add --types` took kinds of data, `sync --types`
/// sample types; `export csv --source` was a column switch, `delete --source` a filter.
@Suite struct I34FlagMeaningsTests {
    /// One visible long option of one command, from `--experimental-dump-help`.
    struct Occurrence {
        var command: String
        var isFlag: Bool
        var abstract: String
    }

    /// Every visible long option of every command, by name (`--db` → its occurrences).
    static func occurrences() throws -> [String: [Occurrence]] {
        let run = try CommandLine33.run(["--experimental-dump-help"])
        #expect(run.status == 0, "\(run.err)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        var found: [String: [Occurrence]] = [:]
        func walk(_ command: [String: Any], path: String) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool != false {
                for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                    found["--" + (name["name"] as? String ?? ""), default: []].append(
                        Occurrence(
                            command: path, isFlag: argument["kind"] as? String == "flag",
                            abstract: argument["abstract"] as? String ?? ""))
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path: path + " " + (sub["commandName"] as? String ?? ""))
            }
        }
        walk(try #require(root["command"] as? [String: Any]), path: "healthpipe")
        return found
    }

    @Test func i34_cli_eachFlagNameHasOneMeaning() throws {
        let found = try Self.occurrences()
        #expect(found.count > 60)
        // A name is a switch everywhere or takes a value everywhere.
        for (name, occurrences) in found {
            #expect(Set(occurrences.map(\.isFlag)).count == 1, "\(name): \(occurrences.map(\.command))")
        }
        // The names that had two or three meanings: each occurrence says the one meaning.
        let meanings: [String: (says: String, never: String?)] = [
            "--db": ("store", "server's"),
            "--server-db": ("server's SQLite file", nil),
            "--tz": ("Read every date and local time in this IANA zone", nil),
            "--home-tz": ("one of days without HKTimeZone evidence", nil),
            "--types": ("Types to sync", nil),
            "--kinds": ("The kinds of health data", nil),
            "--source": ("Only samples of the source", nil),
            "--source-column": ("Add a Source column", nil),
        ]
        for (name, meaning) in meanings {
            let occurrences = try #require(found[name], "\(name) is no longer offered")
            for occurrence in occurrences {
                #expect(occurrence.abstract.contains(meaning.says), "\(occurrence.command) \(name): \(occurrence.abstract)")
                if let never = meaning.never {
                    #expect(!occurrence.abstract.contains(never), "\(occurrence.command) \(name): \(occurrence.abstract)")
                }
            }
        }
        #expect(Set(found["--server-db"]!.map(\.command)).isSuperset(of: ["healthpipe serve", "healthpipe users add"]))
        #expect(found["--db"]!.contains { $0.command == "healthpipe import" })
    }

    /// A name given where it used to mean something else is refused, naming the flag meant.
    @Test func i34_cli_aFlagOfTheOldMeaningIsRefusedWithTheFlagMeant() throws {
        let folder = NSTemporaryDirectory() + "hp-i34-flags-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let refusals: [([String], String)] = [
            (["serve", "--db", folder + "/server.sqlite", "--port", "1"], "--server-db"),
            (["users", "add", "alice", "--db", folder + "/server.sqlite"], "--server-db"),
            (["migrate", "--from-sqlite", folder, "--db", folder + "/server.sqlite"], "--server-db"),
            (["users", "token", "add", "alice", "--name", "coach", "--types", "steps"], "--kinds"),
            (["sync", "--once", "--db", folder + "/health.sqlite", "--tz", "UTC"], "--home-tz"),
            (["export", "csv", "--daily", "--source", "--db", folder + "/health.sqlite"], "--source-column"),
        ]
        for (arguments, meant) in refusals {
            let run = try CommandLine33.run(arguments)
            #expect(run.status != 0, "\(arguments)")
            #expect(run.err.contains(meant), "\(arguments): \(run.err)")
        }
        // Nothing was created by a refused command.
        #expect(!FileManager.default.fileExists(atPath: folder + "/server.sqlite"))
    }
}
