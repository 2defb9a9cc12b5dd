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
public actor StdioLineTransport: Transport {
    public nonisolated let logger: Logger
    private let input: Int32
    private let output: Int32
    /// How long answers are awaited once the input has ended.
    public nonisolated let answerTimeout: Duration
    private nonisolated let messages: AsyncThrowingStream<Data, any Error>
    private nonisolated let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private nonisolated let state = Mutex(State())
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

    public func connect() async throws {
        guard !started else { return }
        started = true
        let input = input
        // A thread of its own: a blocking read must not hold one of the few threads of the
        // cooperative pool.
        Thread.detachNewThread { [self] in
            Self.readLines(from: input) { line in
                state.withLock { $0.unanswered.formUnion(RequestIDs.requests(in: line)) }
                continuation.yield(line)
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

    public func disconnect() async {
        finish()
    }

    /// Writes `data` and a newline; a response taken off the requests still to answer.
    public func send(_ data: Data) async throws {
        var line = data
        line.append(0x0A)
        try line.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let count = write(output, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
                written += count
            }
        }
        let answered = RequestIDs.responses(in: data)
        guard !answered.isEmpty else { return }
        let done = state.withLock { state -> Bool in
            state.unanswered.subtract(answered)
            return state.inputEnded && state.unanswered.isEmpty
        }
        if done { finish() }
    }

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
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[..<count])
            while let newline = pending.firstIndex(of: 0x0A) {
                deliver(Data(pending[pending.startIndex..<newline]))
                pending = Data(pending[(newline + 1)...])
            }
        }
        deliver(pending)
    }
}

/// The ids of JSON-RPC requests and responses in a message (one object or a batch), as keys
/// that tell a number from a string.
enum RequestIDs {
    /// Requests: a method and an id (notifications have no id).
    static func requests(in message: Data) -> Set<String> {
        ids(in: message) { $0["method"] is String }
    }

    /// Responses: an id and a result or an error, no method.
    static func responses(in message: Data) -> Set<String> {
        ids(in: message) { $0["method"] == nil && ($0["result"] != nil || $0["error"] != nil) }
    }

    static func key(_ id: Any?) -> String? {
        switch id {
        case let text as String: "s:" + text
        case let number as NSNumber: "n:" + number.stringValue
        default: nil
        }
    }

    private static func ids(in message: Data, where include: ([String: Any]) -> Bool) -> Set<String> {
        guard let json = try? JSONSerialization.jsonObject(with: message) else { return [] }
        let objects = (json as? [Any] ?? [json]).compactMap { $0 as? [String: Any] }
        return Set(objects.filter(include).compactMap { key($0["id"]) })
    }
}
