import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthExport

struct ExportGPX: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpx",
        abstract: "Workout routes as GPX 1.1 files, the format Strava, Garmin Connect and Komoot import.",
        discussion: """
            --workout UUID writes that workout's route (to --out, or standard output); --from/--to or --last \
            write one file per workout with a route into the folder --out (default: the current folder), \
            named by day, activity and id. Every point keeps its position, elevation, time, speed, course \
            and accuracies (Apple's GPX extensions). `healthpipe workouts` lists the ids.
            """)

    @OptionGroup var storage: StoreOptions

    @Option(help: "The workout's id (a UUID, as `healthpipe workouts` shows it).")
    var workout: String?

    @OptionGroup var range: DayRangeOptions

    @Option(help: "With --workout: a file, a folder or - (default -). Otherwise: a folder (default .).")
    var out: String?

    func validate() throws {
        if let workout, UUID(uuidString: workout) == nil {
            throw ValidationError("--workout must be a workout's id (a UUID), not '\(workout)'")
        }
        if workout != nil, range.isGiven {
            throw ValidationError("give --workout or a range of days (--last, --from/--to, --today), not both")
        }
        if out?.isEmpty == true { throw ValidationError("--out must name a file, a folder or -") }
        if workout == nil, out == "-" {
            throw ValidationError("a range of days writes a file per workout: --out names a folder (- is for --workout)")
        }
    }

    func run() async throws {
        if let workout, let uuid = UUID(uuidString: workout) {
            try await storage.withQueries { store in
                guard let found = try await store.workout(uuid) else {
                    printError("error: no workout with id \(workout) in this store; `healthpipe workouts` lists them")
                    throw ExitCode(2)
                }
                guard !RouteDocuments.tracks(found).isEmpty else {
                    printError("error: workout \(workout) recorded no route")
                    throw ExitCode(2)
                }
                var path = out ?? "-"
                var isFolder: ObjCBool = false
                if path.hasSuffix("/")
                    || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue)
                {
                    try Self.makeFolder(path)
                    let normalizer = DailyNormalizer(store: store, configuration: range.configuration(), now: { Date() })
                    path = (path as NSString).appendingPathComponent(
                        Self.fileName(found, zone: try await normalizer.zone(of: found)))
                }
                try await Self.write(found, to: path)
                if path != "-" { printError("Wrote \(path).") }
            }
            return
        }
        let folder = out ?? "."
        let configuration = range.configuration()
        let (written, note) = try await storage.withQueries { store -> (Int, String?) in
            let (first, last) = try await range.dates(store: store, configuration: configuration, defaultDays: 7)
            let normalizer = DailyNormalizer(store: store, configuration: configuration, now: { Date() })
            let span = try await normalizer.span(from: first, through: last)
            var written = 0
            let listed = try await store.workouts(overlapping: span).filter { $0.start >= span.start && $0.start < span.end }
            guard !listed.isEmpty else {
                return (0, try await WorkoutTable.noneNote(from: first, through: last, in: store, normalizer))
            }
            // The list has no routes: each workout is read whole, one at a time.
            for listed in listed {
                guard let workout = try await store.workout(listed.uuid), !RouteDocuments.tracks(workout).isEmpty else {
                    continue
                }
                try Self.makeFolder(folder)
                let path = (folder as NSString).appendingPathComponent(
                    Self.fileName(workout, zone: try await normalizer.zone(of: workout)))
                try await Self.write(workout, to: path)
                written += 1
            }
            let count = "\(listed.count) workout\(listed.count == 1 ? "" : "s")"
            return (written, written > 0 ? nil : "None of the \(count) from \(first) through \(last) recorded a route.")
        }
        if let note {
            printError("Wrote no GPX file. " + note)
        } else {
            printError("Wrote \(written) GPX file\(written == 1 ? "" : "s") to \(folder).")
        }
    }

    /// `2024-06-01_Running_1a2b3c4d-….gpx`: the local day it started (in `zone`, its
    /// ``DailyNormalizer/zone(of:)``), its activity, its whole id (two workouts of a day may
    /// share the start of theirs).
    static func fileName(_ workout: Workout, zone: TimeZone) -> String {
        let day = LocalDate(workout.start, in: zone)
        let activity = HealthKitWorkoutActivities.shortName(workout.activityType).filter { $0.isLetter || $0.isNumber }
        return "\(day)_\(activity.isEmpty ? "Workout" : activity)_\(workout.uuid.uuidString.lowercased()).gpx"
    }

    /// Creates `folder` (and its parents), or says why it cannot: exit 2.
    static func makeFolder(_ folder: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                printError("error: \(folder) is a file, not a folder; give a folder for the GPX files")
                throw ExitCode(2)
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            printError(
                "error: cannot make the folder \(folder): \((error as NSError).localizedFailureReason ?? "permission denied or a file in the way")"
            )
            throw ExitCode(2)
        }
    }

    /// Writes `workout`'s route as GPX to standard output (`-`) or to `path`, a chunk at a
    /// time, moved into place once whole.
    static func write(_ workout: Workout, to path: String) async throws {
        let destination = try CSVDestination(path, now: Date(), zone: .current)
        do {
            try await RouteDocuments.writeGPX(workout) { chunk in
                try Array(chunk.utf8).withUnsafeBytes { try destination.write($0) }
            }
            try destination.commit()
        } catch {
            destination.discard()
            throw error
        }
    }
}
