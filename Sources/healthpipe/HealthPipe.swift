import ArgumentParser
import Foundation
import HealthBasics
import HealthSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The entry point: every file and folder the tool creates — stores, server data, uploads,
/// CSV exports, sync state — is the user's alone (0600 and 0700), then the command runs.
@main
enum Entry {
    static func main() async {
        umask(0o077)
        SQLiteProcessOptions.configureAtStart()
        await HealthPipe.main()
    }
}

struct HealthPipe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthpipe",
        abstract: "Turn HealthKit data into a clean, queryable store.",
        version: HealthPipelineVersion.current,
        subcommands: [
            Demo.self, Import.self, Days.self, Sleep.self, Readiness.self, Workouts.self, Export.self, Samples.self, Changes.self,
            Delete.self, Serve.self, Migrate.self, Dashboard.self, MCPServe.self, Users.self, Devices.self, Sync.self,
            ServerKeyCommand.self, Snapshot.self,
            Log.self, Plan.self,
            Coach.self,
            Stats.self, Synth.self,
            Bench.self,
        ])
}

/// `--db`, shared by every command that reads or writes the store.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The SQLite store (default: $XDG_DATA_HOME/healthpipe/health.sqlite).")
    var db: String?

    /// The path given, or the default in the user's data directory.
    var path: String { db ?? DatabaseOptions.defaultPath() }

    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return xdg + "/healthpipe/health.sqlite"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/healthpipe/health.sqlite"
    }
}

/// Writes to standard error.
func printError(_ text: String, newline: Bool = true) {
    FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
}
