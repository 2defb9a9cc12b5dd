import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 with an ephemeral port, for testing clients against
/// real sockets: each request gets the canned answer of its path, optionally after a delay
/// (a delay longer than the client's timeout is a hanging server).
final class LoopbackHTTPServer: @unchecked Sendable {
    struct Answer {
        var status = 200
        var body = Data()
        var contentType = "application/json"
        var delay: TimeInterval = 0
    }

    let port: UInt16
    private let listener: Int32
    private let answer: @Sendable (String) -> Answer
    private let lock = NSLock()
    private var requestTargets: [String] = []
    private var stopped = false

    /// Starts listening; `answer` maps a request target (path and query) to the answer.
    init(answer: @escaping @Sendable (String) -> Answer) throws {
        self.answer = answer
        let (fd, port) = try Self.bindLoopback(reuseAddress: true)
        guard listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.port = port
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A TCP socket bound to 127.0.0.1 on a port the kernel chooses, and that port.
    static func bindLoopback(reuseAddress: Bool) throws -> (descriptor: Int32, port: UInt16) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        if reuseAddress {
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// The base URL clients should use.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The request targets received so far.
    var targets: [String] { lock.withLock { requestTargets } }

    /// Stops listening. Idempotent: closing the descriptor twice would close whatever file
    /// another test opened under the same number since (a SQLite store, once).
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if lock.withLock({ stopped }) { return }
                continue
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request.append(contentsOf: buffer[0..<count])
        }
        let firstLine = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n")[0]
        let target = firstLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        lock.withLock { requestTargets.append(target) }
        let answer = answer(target)
        if answer.delay > 0 { Thread.sleep(forTimeInterval: answer.delay) }
        let reason = answer.status == 200 ? "OK" : "Error"
        var response = Data(
            ("HTTP/1.1 \(answer.status) \(reason)\r\nContent-Type: \(answer.contentType)\r\n"
                + "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n").utf8)
        response.append(answer.body)
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)  // a client that gave up must not kill the test process
        #else
            let flags: Int32 = 0
        #endif
        response.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = send(connection, bytes.baseAddress! + sent, bytes.count - sent, flags)
                guard count > 0 else { return }
                sent += count
            }
        }
    }
}
