import ArgumentParser
import Foundation

/// Runs a command as a child process and measures wall time and its peak RSS (wait4).
enum ChildProcess {
    struct Measurement {
        var status: Int32
        var seconds: Double
        var peakRSSKiB: Int
    }

    /// Runs `executable` with `arguments`, its standard output into `stdout` when given.
    static func measure(_ executable: String, _ arguments: [String], stdout: String? = nil) throws -> Measurement {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout { posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ValidationError("cannot run \(executable) (error \(spawned))") }
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Measurement(status: exit, seconds: Date().timeIntervalSince(started), peakRSSKiB: Int(usage.ru_maxrss))
    }
}
