import ArgumentParser
import Foundation
import HealthDashboard
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The address `serve` and `dashboard` listen on: a port that is taken, or not this user's
/// to take, is said in one line before anything claims to listen (`port 8080 is in use`),
/// never as a raw bind error after the banner.
enum ListeningPort {
    /// Exits 2 with the reason when `host:port` cannot be bound now.
    static func requireFree(host: String, port: Int) throws {
        guard let problem = problem(host: host, port: port) else { return }
        printError("error: \(problem)")
        throw ExitCode(2)
    }

    /// Why binding `host:port` fails now (``describe(errno:host:port:)``); `nil` when it can
    /// be bound, or when the host does not resolve (the server says so itself).
    static func problem(host: String, port: Int) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return nil }
        defer { freeaddrinfo(found) }
        let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // As the server binds: a connection of a stopped server in TIME_WAIT is no obstacle.
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 else { return nil }
        return describe(errno: errno, host: host, port: port)
    }

    /// The words for a bind that failed with `code`; `nil` for a code without them.
    static func describe(errno code: Int32, host: String, port: Int) -> String? {
        switch code {
        case EADDRINUSE:
            "port \(port) is in use on \(host): another program (or another healthpipe) listens there; stop it or give another --port"
        case EACCES: "port \(port) needs privileges this user does not have (permission denied); give a port above 1023"
        case EADDRNOTAVAIL: "\(host) is not an address of this machine; give one of its addresses, or 0.0.0.0 for all"
        default: nil
        }
    }

    /// The error a server stopped with; a failed bind said in one line, then exit 2.
    static func explained(_ error: any Error, host: String, port: Int) -> any Error {
        guard let error = error as? IOError, let problem = describe(errno: error.errnoCode, host: host, port: port) else {
            return error
        }
        printError("error: \(problem)")
        return ExitCode(2)
    }

    /// Warns when the server would take tokens and health data over plain HTTP from other
    /// machines: a host that is not loopback, without TLS and not behind a TLS proxy.
    static func warnIfPlain(host: String, tls: Bool, publicURL: String?) {
        guard !tls, publicURL == nil, host != "::1", !LoopbackHost.allows(host) else { return }
        printError(
            "warning: serving plain HTTP on \(host), reachable from other machines: tokens and health data cross the "
                + "network unencrypted. Give --tls-cert and --tls-key, or serve behind a TLS proxy (--public-url https://…).")
    }
}
