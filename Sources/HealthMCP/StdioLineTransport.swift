import Foundation
import Logging
import MCP
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// MCP over standard input and output, one JSON-RPC message a line (the stdio transport of
/// the MCP specification), which answers everything it was asked before it ends.
///
/// The SDK's `StdioTransport` ends its stream at the end of its input, and the server then
/// stops, whatever requests are still being answered (it answers each in a task of its own):
/// a client that writes its requests and closes its end of the pipe
/// (`printf '…' | healthpipe mcp`) lost its answers, and a last line without a newline was
/// dropped. Here the stream ends when the input has ended *and* every request read has had
/// its response written, or ``answerTimeout`` after the input ended, whichever is first.
///
/// A line that is no JSON-RPC request the SDK can answer — no JSON, no object, an empty
/// batch, an `id` that is neither a string nor an integer — is answered here with the
/// JSON-RPC error its specification names and `"id": null` (the SDK answered some under a
/// random id and left others unanswered, so that their client waited for ever); a request
/// whose params its method cannot read, with Invalid params under its id (``InvalidParams``).
public actor StdioLineTransport: Transport {
    /// Where the transport says what went wrong (never a message's content).
    public nonisolated let logger: Logger
    private let input: Int32
    private let output: Int32
    /// How long answers are awaited once the input has ended.
    public nonisolated let answerTimeout: Duration
    private nonisolated let messages: AsyncThrowingStream<Data, any Error>
    private nonisolated let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private nonisolated let state = Mutex(State())
    /// Held while a line is written: answers come from the server and refusals from the
    /// reading thread, and their bytes must not interleave.
    private nonisolated let writing = Mutex(())
    private var started = false

    private struct State {
        /// The ids of requests read and not yet answered (``RequestIDs/key(_:)``).
        var unanswered: Set<String> = []
        var inputEnded = false
        var finished = false
    }

    /// Reads `input` and writes `output` (standard input and output by default).
    public init(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, logger: Logger,
        answerTimeout: Duration = .seconds(120)
    ) {
        self.input = input
        self.output = output
        self.logger = logger
        self.answerTimeout = answerTimeout
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    /// Starts reading the input, on a thread of its own.
    public func connect() async throws {
        guard !started else { return }
        started = true
        let input = input
        // A thread of its own: a blocking read must not hold one of the few threads of the
        // cooperative pool.
        Thread.detachNewThread { [self] in
            Self.readLines(from: input) { line in
                let incoming = RequestIDs.incoming(line)
                if let refusal = incoming.refusal {
                    do { try write(refusal) } catch { logger.warning("a refusal could not be written: \(error)") }
                }
                guard let passed = incoming.passed else { return }
                // Counted before the server sees it: its answer cannot come first.
                state.withLock {
                    $0.unanswered.formUnion(incoming.asked)
                    $0.unanswered.subtract(incoming.cancelled)
                }
                continuation.yield(passed)
            }
            let waiting = state.withLock { state -> Int in
                state.inputEnded = true
                return state.unanswered.count
            }
            guard waiting > 0 else { return finish() }
            let (seconds, attoseconds) = answerTimeout.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            let unanswered = state.withLock { $0.finished ? 0 : $0.unanswered.count }
            if unanswered > 0 {
                logger.warning("input ended; \(unanswered) request(s) still unanswered after \(answerTimeout)")
            }
            finish()
        }
    }

    /// Ends the stream of messages (the server's `stop()`).
    public func disconnect() async {
        finish()
    }

    /// Writes `data` and a newline; a response taken off the requests still to answer.
    public func send(_ data: Data) async throws {
        try write(data)
        let answered = RequestIDs.responses(in: data)
        guard !answered.isEmpty else { return }
        let done = state.withLock { state -> Bool in
            state.unanswered.subtract(answered)
            return state.inputEnded && state.unanswered.isEmpty
        }
        if done { finish() }
    }

    /// Writes `data` and a newline to the output, whole, under ``writing``.
    private nonisolated func write(_ data: Data) throws {
        var line = data
        line.append(0x0A)
        let output = output
        try writing.withLock { _ in try Self.write(line, to: output) }
    }

    private static func write(_ line: Data, to output: Int32) throws {
        try line.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                #if canImport(Glibc)
                    let count = Glibc.write(output, bytes.baseAddress! + written, bytes.count - written)
                #else
                    let count = Darwin.write(output, bytes.baseAddress! + written, bytes.count - written)
                #endif
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        // Standard output made non-blocking by whoever started us: wait for room.
                        var ready = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, -1)
                        continue
                    }
                    throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
                written += count
            }
        }
    }

    /// The messages read, one a line; it ends as the type's documentation says.
    public nonisolated func receive() -> AsyncThrowingStream<Data, any Error> { messages }

    /// Ends the stream of messages (once).
    private nonisolated func finish() {
        let first = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        if first { continuation.finish() }
    }

    /// Calls `line` with every non-empty line of `input` (without its `\n` or `\r\n`), the
    /// last one too when the input ends without a newline, until the input ends or fails.
    static func readLines(from input: Int32, _ line: (Data) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var pending = Data()
        func deliver(_ bytes: Data) {
            var bytes = bytes
            if bytes.last == 0x0D { bytes.removeLast() }
            if !bytes.isEmpty { line(bytes) }
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN {
                // A non-blocking standard input: wait for bytes, not the end.
                var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            guard count > 0 else { break }
            // Only the new bytes are searched for a newline: a long line is read in linear time.
            var lineStart = 0
            for index in 0..<count where buffer[index] == 0x0A {
                pending.append(contentsOf: buffer[lineStart..<index])
                deliver(pending)
                pending.removeAll(keepingCapacity: true)
                lineStart = index + 1
            }
            pending.append(contentsOf: buffer[lineStart..<count])
        }
        deliver(pending)
    }
}

/// A JSON-RPC message the SDK would answer under a random id or not at all, and the answer
/// it gets instead (``RequestIDs/refusal(of:)``): what `POST /mcp` answers too, as stdio does.
public enum JSONRPCRefusal {
    /// The error response for `message` (`"id": null`), or `nil` when the SDK can answer it.
    public static func of(_ message: Data) -> Data? { RequestIDs.refusal(of: message) }

    /// The error response to a batch sent where one message is taken (MCP's streamable HTTP
    /// since 2025-06-18, and the SDK's transport: it answered Parse error); `nil` for a
    /// message that is no batch.
    public static func ofBatch(_ message: Data) -> Data? {
        guard message.first(where: { !" \t\r\n".utf8.contains($0) }) == UInt8(ascii: "[") else { return nil }
        return Data(
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a batch; POST /mcp takes one message a request (MCP 2025-06-18)"}}"#
                .utf8)
    }
}

/// The ids of JSON-RPC requests and responses in a message (one object or a batch), as keys
/// that tell a number from a string; only ids the SDK reads (a string or an integer) count,
/// since a request with another id is answered under a random one.
enum RequestIDs {
    /// Requests the server will answer: a method and an id. In a batch, only when every item
    /// is a request or a notification (the SDK refuses a batch whole otherwise).
    static func requests(in message: Data) -> Set<String> { incoming(message).asked }

    /// Requests the client cancelled (`notifications/cancelled`): the SDK answers none.
    static func cancelled(in message: Data) -> Set<String> { incoming(message).cancelled }

    /// An incoming message read once: what to pass on to the server (`nil`: nothing), the
    /// requests in it the server will answer and those cancelled, and the refusal to write
    /// (``refusal(of:)``).
    struct Incoming {
        var passed: Data?
        var asked: Set<String> = []
        var cancelled: Set<String> = []
        var refusal: Data?
    }

    /// ``requests(in:)``, ``cancelled(in:)`` and ``refusal(of:)`` of an incoming message, its
    /// JSON read once. A batch with items of an id the SDK cannot answer passes on its other
    /// items (a batch of them) and refuses those in a batch of refusals, one each.
    static func incoming(_ message: Data) -> Incoming {
        guard let value = try? JSONDecoder().decode(Value.self, from: message) else {
            return Incoming(refusal: errorResponse(-32700, "Parse error: not JSON"))
        }
        guard let items = items(in: value) else {
            return Incoming(refusal: errorResponse(-32600, "Invalid Request: not an object or a batch of objects"))
        }
        if items.isEmpty { return Incoming(refusal: errorResponse(-32600, "Invalid Request: an empty batch")) }
        // Invalid params are answered here for a request alone only: in a batch, the SDK's one
        // array of answers must hold them all (JSON-RPC 2.0 §6), so it answers them itself.
        let batch = if case .array = value { true } else { false }
        let refused = items.map { refusal(ofItem: $0, checkingParams: !batch) }
        guard refused.contains(where: { $0 != nil }) else {
            return Incoming(passed: message, asked: requests(items), cancelled: cancelled(items))
        }
        guard case .array = value else { return Incoming(refusal: refused[0]) }
        let good = zip(items, refused).filter { $0.1 == nil }.map(\.0)
        let refusals =
            Data("[".utf8) + refused.compactMap { $0 }.joined(separator: Data(",".utf8)) + Data("]".utf8)
        guard !good.isEmpty, let passed = try? JSONEncoder().encode(Value.array(good.map(Value.object))) else {
            return Incoming(refusal: refusals)
        }
        return Incoming(passed: passed, asked: requests(good), cancelled: cancelled(good), refusal: refusals)
    }

    /// The answer to one item that is not passed on: Invalid Request (`"id": null`) for an id
    /// the SDK cannot answer under, Invalid params (under its id) for params its method cannot
    /// read (``InvalidParams``) when `checkingParams`; `nil` for an item passed on.
    private static func refusal(ofItem item: [String: Value], checkingParams: Bool) -> Data? {
        if hasBadID(item) { return errorResponse(-32600, "Invalid Request: id must be a string or an integer") }
        // `{}`, `"jsonrpc": "1.0"`, a method that is no string: the SDK answered Parse error
        // (-32700), over stdio under an id it made up.
        if !isMessage(item) {
            return errorResponse(-32600, "Invalid Request: not a JSON-RPC 2.0 request, notification or response")
        }
        guard checkingParams, let reason = InvalidParams.reason(item), let id = item["id"] else { return nil }
        let error: Value = .object([
            "jsonrpc": .string("2.0"), "id": id, "error": .object(["code": .int(-32602), "message": .string(reason)]),
        ])
        return try? JSONEncoder().encode(error)
    }

    /// A JSON-RPC 2.0 message: `"jsonrpc": "2.0"` and a method that is a string (a request or
    /// a notification), or no method and a result or an error (a response).
    private static func isMessage(_ item: [String: Value]) -> Bool {
        guard item["jsonrpc"] == .string("2.0") else { return false }
        if let method = item["method"] {
            if case .string = method { return true }
            return false
        }
        return item["result"] != nil || item["error"] != nil
    }

    /// A request (a method) whose `id` is present and neither a string nor an integer.
    private static func hasBadID(_ item: [String: Value]) -> Bool {
        item["method"] != nil && item["id"] != nil && key(item["id"]) == nil
    }

    private static func requests(_ items: [[String: Value]]) -> Set<String> {
        let valid = items.allSatisfy { item in
            guard case .string = item["method"] else { return false }
            return item["id"] == nil || key(item["id"]) != nil
        }
        guard valid else { return [] }
        return Set(items.compactMap { key($0["id"]) })
    }

    /// Responses: an id and a result or an error, no method.
    static func responses(in message: Data) -> Set<String> {
        guard let items = items(in: message) else { return [] }
        return Set(
            items.filter { $0["method"] == nil && ($0["result"] != nil || $0["error"] != nil) }.compactMap { key($0["id"]) })
    }

    private static func cancelled(_ items: [[String: Value]]) -> Set<String> {
        Set(
            items.compactMap { item in
                guard item["method"] == .string("notifications/cancelled"), case .object(let params) = item["params"]
                else { return nil }
                return key(params["requestId"])
            })
    }

    /// The error response to a line the SDK would answer under a random id or not at all
    /// (JSON-RPC 2.0 §5: `"id": null` when the request's id cannot be known); `nil` for one it
    /// answers. Parse error (-32700): no JSON. Invalid Request (-32600): JSON that is no
    /// object and no batch of objects, an empty batch, a request whose `id` is present but
    /// neither a string nor an integer (`null`, a fraction, an object…), an object that is no
    /// JSON-RPC 2.0 message (`{}`, another `jsonrpc`).
    static func refusal(of line: Data) -> Data? { incoming(line).refusal }

    /// `{"jsonrpc":"2.0","id":null,"error":{"code":…,"message":…}}`.
    private static func errorResponse(_ code: Int, _ message: StaticString) -> Data {
        Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":\#(code),"message":"\#(message)"}}"#.utf8)
    }

    /// `"s:…"` for a string id, `"n:…"` for an integer; `nil` for anything else.
    static func key(_ id: Value?) -> String? {
        switch id {
        case .string(let text): "s:" + text
        case .int(let number): "n:" + String(number)
        default: nil
        }
    }

    /// The objects of a message: itself, or a batch's items; `nil` when it is neither.
    private static func items(in message: Data) -> [[String: Value]]? {
        guard let value = try? JSONDecoder().decode(Value.self, from: message), let items = items(in: value) else {
            return nil
        }
        return items.isEmpty ? nil : items
    }

    /// An object as one item, a batch's items (empty for an empty batch); `nil` for another
    /// value, or a batch with an item that is no object.
    private static func items(in value: Value) -> [[String: Value]]? {
        switch value {
        case .object(let object): return [object]
        case .array(let items):
            let objects = items.compactMap { item -> [String: Value]? in
                if case .object(let object) = item { object } else { nil }
            }
            return objects.count == items.count ? objects : nil
        default: return nil
        }
    }
}
