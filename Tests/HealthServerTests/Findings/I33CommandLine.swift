import Foundation

/// Runs the `healthpipe` binary built beside the tests (``ChildProcess/binary()``) as a
/// person would, for the command-line findings of issue 33.
enum CommandLine33 {
    /// What a run printed, and how it ended.
    struct Run {
        var status: Int32
        var out: String
        var err: String
    }

    /// Runs `healthpipe arguments…` to its end, standard input empty, in the zone `TZ` (UTC,
    /// as on a server, unless `environment` says otherwise).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let folder = try temporaryFolder("run")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (outPath, errPath) = (folder + "/out", folder + "/err")
        for path in [outPath, errPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = try ChildProcess.binary()
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        variables["TZ"] = "UTC"
        variables["HEALTHPIPE_POSTGRES_URL"] = nil
        process.environment = variables.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(
            status: process.terminationStatus, out: try String(contentsOfFile: outPath, encoding: .utf8),
            err: try String(contentsOfFile: errPath, encoding: .utf8))
    }

    /// A new empty folder; the caller removes it.
    static func temporaryFolder(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hp-i33-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A test fixture's path.
    static func fixture(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/" + path).path
    }

    /// `export.xml` holding `records` (Record and Workout elements), written into `folder`.
    static func export(_ records: String, in folder: String) throws -> String {
        let path = folder + "/export.xml"
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2025-01-02 12:00:00 +0000"/>
            \(records)
            </HealthData>

            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A store in `folder` with `export` imported; its path.
    static func store(importing export: String, in folder: String) throws -> String {
        let store = folder + "/health.sqlite"
        let run = try run(["import", export, "--db", store, "--quiet"])
        guard run.status == 0 else { throw ChaosError("import exited \(run.status): \(run.err)") }
        return store
    }
}
