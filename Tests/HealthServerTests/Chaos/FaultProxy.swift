import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on loopback that breaks requests on purpose: between a sync client and
/// the server it resets connections in the middle of a request or of an answer, answers
/// 500 or 429 (`Retry-After: 1`) itself, or forwards a request and then holds the answer
/// back until the client gives up. One plain thread per connection, blocking sockets and
/// `poll`: no event loop shared with what it tests.
final class FaultProxy: @unchecked Sendable {
    /// What happens to one request (and to the rest of its connection).
    enum Fault: String, CaseIterable, Sendable {
        /// Bytes pass both ways untouched.
        case pass
        /// The request is cut after a random number of bytes; both sides get a reset.
        case resetMidRequest = "reset mid-request"
        /// The request reaches the server; its answer is cut after a random number of bytes.
        case resetMidResponse = "reset mid-response"
        /// The proxy reads the request and answers 500 without forwarding it.
        case serverError = "500"
        /// The proxy reads the request and answers 429 with `Retry-After: 1`.
        case tooManyRequests = "429"
        /// The request reaches the server; its answer never reaches the client, which times out.
        case stall = "stall"
    }

    let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var faultRate = 0.0
    private var counts: [Fault: Int] = [:]
    private var stopped = false
    private var rotation = 0

    /// Listens on a free loopback port and forwards to `upstreamPort` on loopback.
    init(upstreamPort: Int) throws {
        self.upstreamPort = upstreamPort
        (listener, port) = try Self.listenOnLoopback()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A listening socket on a free loopback port, and the port.
    static func listenOnLoopback() throws -> (Int32, Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw ChaosError("cannot listen on loopback: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A loopback port nothing listens on now (the kernel's choice).
    static func freePort() throws -> Int {
        let (socket, port) = try listenOnLoopback()
        close(socket)
        return port
    }

    /// The share of requests that get a fault (0: all pass).
    func setFaultRate(_ rate: Double) { lock.withLock { faultRate = rate } }

    /// Requests so far by what happened to them.
    var faultCounts: [Fault: Int] { lock.withLock { counts } }

    /// Stops accepting; connections already open end when their peers close them.
    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if lock.withLock({ stopped }) { return }
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            Thread { [self] in serve(client) }.start()
        }
    }

    /// The fault for the next request; faulty requests take the faults in turn, so a
    /// short run still meets each.
    private func nextFault() -> Fault {
        lock.withLock {
            var chosen = Fault.pass
            if Double.random(in: 0..<1) < faultRate {
                chosen = Fault.allCases[1 + rotation % (Fault.allCases.count - 1)]
                rotation += 1
            }
            counts[chosen, default: 0] += 1
            return chosen
        }
    }

    private func serve(_ client: Int32) {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 {  // the server is down: the client sees its connection reset
            close(upstream)
            reset(client)
            return
        }
        relay(client, upstream)
    }

    /// Copies both ways until both sides are done. Each request on the connection (bytes
    /// from the client after an answer, or the first) draws its fault, which breaks the
    /// stream from there on.
    private func relay(_ client: Int32, _ upstream: Int32) {
        var fault = Fault.pass
        var newRequest = true
        var requestBudget = Int.max
        var responseBudget = Int.max
        var clientOpen = true
        var upstreamOpen = true
        var buffer = [UInt8](repeating: 0, count: 65536)
        defer {
            close(client)
            close(upstream)
        }
        while clientOpen || upstreamOpen {
            var fds = [
                pollfd(fd: clientOpen ? client : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: upstreamOpen ? upstream : -1, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, 200) >= 0 || errno == EINTR else { return }
            if lock.withLock({ stopped }) { return }
            if clientOpen, fds[0].revents != 0 {
                let n = read(client, &buffer, buffer.count)
                if n <= 0 {
                    clientOpen = false
                    if fault == .stall { return }  // the client gave up waiting: done
                    shutdown(upstream, Int32(SHUT_WR))
                    continue
                }
                if newRequest {
                    newRequest = false
                    fault = nextFault()
                    requestBudget = fault == .resetMidRequest ? Int.random(in: 1...6000) : Int.max
                    responseBudget = fault == .resetMidResponse ? Int.random(in: 1...600) : Int.max
                    switch fault {
                    case .serverError:
                        return answerItself(
                            client, Array(buffer[0..<n]),
                            "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/problem+json\r\n",
                            #"{"title":"Injected fault","status":500}"#)
                    case .tooManyRequests:
                        return answerItself(
                            client, Array(buffer[0..<n]),
                            "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Type: application/problem+json\r\n",
                            #"{"title":"Injected fault","status":429}"#)
                    default: break
                    }
                }
                let forwarded = min(n, requestBudget)
                guard Self.writeAll(upstream, buffer, forwarded) else { return }
                requestBudget -= forwarded
                if requestBudget == 0 { return resetBoth(client, upstream) }
            }
            if upstreamOpen, fds[1].revents != 0 {
                let n = read(upstream, &buffer, buffer.count)
                if n <= 0 {
                    upstreamOpen = false
                    if fault != .stall { shutdown(client, Int32(SHUT_WR)) }
                } else if fault != .stall {
                    newRequest = true
                    let forwarded = min(n, responseBudget)
                    guard Self.writeAll(client, buffer, forwarded) else { return }
                    responseBudget -= forwarded
                    if responseBudget == 0 { return resetBoth(client, upstream) }
                }
            }
        }
    }

    /// Reads the rest of one request (head and `Content-Length` body) and answers it
    /// without the server; the connection then closes.
    private func answerItself(_ client: Int32, _ start: [UInt8], _ head: String, _ body: String) {
        var received = start
        var buffer = [UInt8](repeating: 0, count: 65536)
        var expected: Int?
        while true {
            if expected == nil, let end = Self.headEnd(received) {
                let text = String(decoding: received[0..<end], as: UTF8.self).lowercased()
                let length =
                    text.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = end + 4 + length
            }
            if let expected, received.count >= expected { break }
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        let answer = Array((head + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body).utf8)
        _ = Self.writeAll(client, answer, answer.count)
        shutdown(client, Int32(SHUT_WR))
    }

    /// Both sides get a reset (RST) instead of an orderly close.
    private func resetBoth(_ client: Int32, _ upstream: Int32) {
        Self.closeWithReset(client)
        Self.closeWithReset(upstream)
    }

    /// Closes `socket` with a reset (RST) instead of an orderly FIN.
    private func reset(_ socket: Int32) {
        Self.closeWithReset(socket)
        close(socket)
    }

    /// Makes the coming `close` of `socket` send a reset (SO_LINGER 0).
    private static func closeWithReset(_ socket: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func writeAll(_ socket: Int32, _ bytes: [UInt8], _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let n = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 {
                if n < 0, errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// A set-up step of the chaos run that failed (a socket, a child process, the server).
struct ChaosError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
