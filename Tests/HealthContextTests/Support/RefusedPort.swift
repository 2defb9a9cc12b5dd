import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback port bound and never listened on: a connection to it is refused, and while it
/// is held no server can take it. (A stopped server's port was given to the next test's
/// server, which then answered the connection that was to be refused: HTTP 503 instead of
/// "connection refused", a CI failure.) Without `SO_REUSEADDR`, so no other socket shares it.
final class RefusedPort: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let lock = NSLock()
    private var released = false

    init() throws {
        (descriptor, port) = try LoopbackHTTPServer.bindLoopback(reuseAddress: false)
    }

    /// The base URL a client that must be refused uses.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Gives the port up. Idempotent (closing a descriptor twice closes another's file).
    func release() {
        let first = lock.withLock { () -> Bool in
            defer { released = true }
            return !released
        }
        if first { close(descriptor) }
    }

    deinit { release() }
}
