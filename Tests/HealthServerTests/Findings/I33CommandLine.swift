import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
        try run(arguments, environment: environment, binary: try ChildProcess.binary().path, wrapper: [])
    }

    /// Runs `healthpipe arguments…` as an unprivileged user: as `nobody` through setpriv when
    /// this process is root (root may write anywhere), else as this user; `nil` when this
    /// machine cannot (root without setpriv).
    static func runUnprivileged(_ arguments: [String]) throws -> Run? {
        guard geteuid() == 0 else { return try run(arguments) }
        let wrapper = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        guard FileManager.default.isExecutableFile(atPath: wrapper[0]) else { return nil }
        var binary = try ChildProcess.binary().path
        if try run(["--version"], binary: binary, wrapper: wrapper).status != 0 {
            // The build folder is not open to nobody: a copy in a folder that is.
            let folder = try temporaryFolder("binary")
            let copy = folder + "/healthpipe"
            try FileManager.default.copyItem(atPath: binary, toPath: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
            binary = copy
        }
        defer {
            if binary.contains("hp-i33-binary-") {
                try? FileManager.default.removeItem(atPath: (binary as NSString).deletingLastPathComponent)
            }
        }
        return try run(arguments, binary: binary, wrapper: wrapper)
    }

    private static func run(
        _ arguments: [String], environment: [String: String] = [:], binary: String, wrapper: [String]
    ) throws -> Run {
        let folder = try temporaryFolder("run")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (outPath, errPath) = (folder + "/out", folder + "/err")
        for path in [outPath, errPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrapper.first ?? binary)
        process.arguments = wrapper.isEmpty ? arguments : Array(wrapper.dropFirst()) + [binary] + arguments
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

    /// A store in a new folder (`name` in its name) with `xml` imported by `healthpipe
    /// import`; the caller removes the folder.
    static func store(importing xml: String, _ name: String) throws -> (folder: String, store: String) {
        let folder = try temporaryFolder(name)
        let store = folder + "/health.sqlite"
        try Data(xml.utf8).write(to: URL(fileURLWithPath: folder + "/export.xml"))
        let imported = try run(["import", folder + "/export.xml", "--db", store, "--quiet"])
        guard imported.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: ["stderr": imported.err]) }
        return (folder, store)
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
