import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `healthpipe` child process whose output goes to a log file, to be killed or waited for.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()

    /// The `healthpipe` binary built beside the test runner (`swift build` puts both in
    /// `.build/<triple>/<configuration>/`), or `HEALTHPIPE_BIN`.
    static func binary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["HEALTHPIPE_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let runner = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var folder = URL(fileURLWithPath: runner).deletingLastPathComponent()
        // The runner may sit inside a bundle (…/debug/X.xctest/…): walk up to `debug`.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("healthpipe").path),
            folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        let binary = folder.appendingPathComponent("healthpipe")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ChaosError("no healthpipe binary beside \(runner): run `swift build` first, or set HEALTHPIPE_BIN")
        }
        return binary
    }

    /// Starts `healthpipe arguments…`, appending its stdout and stderr to `log`.
    init(_ arguments: [String], log: URL) throws {
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HEALTHPIPE_POSTGRES_URL"] = nil  // the server under test uses its SQLite file
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        defer { try? handle.close() }  // the child has its own copy; ours would leak one per run
        try process.run()
    }

    /// Runs `healthpipe arguments…` to the end and returns its standard output; throws with
    /// its standard error when it fails. `environment` is added to this process's.
    static func output(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ChaosError(
                "healthpipe \(arguments.first ?? "") exited \(process.terminationStatus): \(String(decoding: errors, as: UTF8.self))"
            )
        }
        return String(decoding: data, as: UTF8.self)
    }

    var isRunning: Bool { process.isRunning }

    /// SIGKILL: no clean-up, no flush, whatever the process was doing.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// SIGTERM: the process's own graceful stop.
    func terminate() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGTERM) }
    }

    /// Waits for the exit, at most `seconds`; the exit status, or `nil` when still running.
    @discardableResult
    func wait(seconds: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return process.isRunning ? nil : process.terminationStatus
    }
}
