import Foundation
import Logging
import MCP
import Testing

@testable import HealthMCP

#if canImport(Glibc)
    import Glibc
#endif

/// `healthpipe mcp` over a pipe that its client closes once its requests are written
/// (`printf '…' | healthpipe mcp`): the SDK's stdio transport ended the server at the end of
/// the input, and the answers still being made were lost (tools/list in 6 runs of 6).
@Suite struct I37StdioLineTransportTests {
    static let requests = [
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        #"{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"list_data_types","arguments":{}}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"prompts/list"}"#,
    ]

    /// The bytes written to `descriptor` until its writers close it, read on a thread of
    /// their own (a response larger than a pipe's buffer must not block the server).
    static func readAll(_ descriptor: Int32) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    data.append(contentsOf: buffer[..<count])
                }
                continuation.resume(returning: data)
            }
        }
    }

    static func pipePair() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        return (ends[0], ends[1])
    }

    static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress!, $0.count) }
            guard count > 0 else { return }
            written += count
        }
    }

    /// Every request is answered though the input ends before any answer is made, the last
    /// one too, written without a newline (and one line ended by `\r\n`).
    @Test func everyRequestIsAnsweredBeforeTheServerEnds() async throws {
        let tools = try await CoachStore.tools()
        let input = try Self.pipePair()
        let output = try Self.pipePair()
        defer { close(output.read) }
        var lines = Self.requests
        lines[2] += "\r"
        Self.write(lines.joined(separator: "\n"), to: input.write)
        close(input.write)
        let server = await CoachServer.make(tools)
        let transport = StdioLineTransport(
            input: input.read, output: output.write, logger: Logger(label: "test"), answerTimeout: .seconds(60))
        async let written = Self.readAll(output.read)
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
        close(output.write)
        close(input.read)
        let answers = String(decoding: await written, as: UTF8.self).split(separator: "\n").map { Data($0.utf8) }
        let ids = answers.reduce(into: Set<String>()) { $0.formUnion(RequestIDs.responses(in: $1)) }
        #expect(ids == ["n:1", "n:2", "s:call", "n:3"], "\(answers.count) answers")
        #expect(answers.count == 4)
    }

    /// A request nobody answers holds the end of the stream for `answerTimeout`, no longer.
    @Test func anUnansweredRequestIsAwaitedForTheTimeoutOnly() async throws {
        let input = try Self.pipePair()
        defer { close(input.read) }
        Self.write(Self.requests[2] + "\n" + Self.requests[1] + "\n", to: input.write)
        close(input.write)
        let transport = StdioLineTransport(
            input: input.read, output: STDERR_FILENO, logger: Logger(label: "test"), answerTimeout: .milliseconds(300))
        let started = ContinuousClock.now
        try await transport.connect()
        var received: [Data] = []
        for try await message in transport.receive() { received.append(message) }
        let waited = ContinuousClock.now - started
        #expect(received.count == 2)
        // Ended, and not before the timeout. (No upper bound: under the whole suite's load this
        // task has waited 53 s to be resumed; an end that never came would hang the test.)
        #expect(waited >= .milliseconds(300), "\(waited)")
    }

    /// Ids are told apart by kind: the number 1 and the string "1" are two requests.
    @Test func idsOfRequestsAndResponses() {
        let batch = Data(
            #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":"1","method":"b"},{"jsonrpc":"2.0","method":"n"}]"#
                .utf8)
        #expect(RequestIDs.requests(in: batch) == ["n:1", "s:1"])
        #expect(RequestIDs.responses(in: batch).isEmpty)
        #expect(RequestIDs.responses(in: Data(#"{"jsonrpc":"2.0","id":"1","result":{}}"#.utf8)) == ["s:1"])
        #expect(RequestIDs.responses(in: Data(#"{"jsonrpc":"2.0","id":7,"error":{"code":-1}}"#.utf8)) == ["n:7"])
        #expect(RequestIDs.requests(in: Data("not json".utf8)).isEmpty)
    }

    /// Only what the SDK answers under its own id is awaited: an id that is no string or
    /// integer is answered under a random one, a batch with an item that is no request is
    /// refused whole (under a random id), and a cancelled request is not answered at all.
    @Test func onlyRequestsTheServerAnswersAreAwaited() {
        for id in ["true", "1.5", "null", "{}", "[1]"] {
            #expect(RequestIDs.requests(in: Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#.utf8)).isEmpty, "\(id)")
        }
        // An item that is no message (no method, no result) is refused here, as Invalid
        // Request; the ping is passed on alone and awaited (the SDK refused the batch whole).
        let mixed = Data(#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2}]"#.utf8)
        #expect(RequestIDs.requests(in: mixed) == ["n:1"])
        let cancel = Data(
            #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call","reason":"x"}}"#.utf8)
        #expect(RequestIDs.cancelled(in: cancel) == ["s:call"] && RequestIDs.requests(in: cancel).isEmpty)
    }

    /// A request the client cancels before the input ends is not awaited: the stream ends at
    /// once (the SDK sends no answer to a cancelled request).
    @Test func aCancelledRequestIsNotAwaited() async throws {
        let input = try Self.pipePair()
        defer { close(input.read) }
        let cancel = #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#
        Self.write(Self.requests[2] + "\n" + cancel + "\n", to: input.write)
        close(input.write)
        let transport = StdioLineTransport(
            input: input.read, output: STDERR_FILENO, logger: Logger(label: "test"), answerTimeout: .seconds(600))
        try await transport.connect()
        var received = 0
        for try await _ in transport.receive() { received += 1 }
        #expect(received == 2)
    }

    /// A line that is no request the SDK can answer is answered here, `"id": null` and the
    /// JSON-RPC error its specification names: no JSON (the SDK answered nothing), JSON that is
    /// no object (a random id), an empty batch (a random id), an id that is null, a fraction
    /// or an object (nothing, or "" for a null id in a batch). The valid request after them is
    /// answered as before, and the stream ends without waiting for the timeout.
    @Test func whatTheSDKCannotAnswerIsAnsweredWithANullID() async throws {
        let tools = try await CoachStore.tools()
        let input = try Self.pipePair()
        let output = try Self.pipePair()
        defer { close(output.read) }
        let bad = [
            "{not json", #""a string""#, "42", "[]", #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, #"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            #"[{"jsonrpc":"2.0","id":null,"method":"ping"}]"#,
        ]
        // A batch with one bad id: its good request answered (by the SDK), the bad one refused.
        let mixed = #"[{"jsonrpc":"2.0","id":10,"method":"ping"},{"jsonrpc":"2.0","id":null,"method":"ping"}]"#
        let lines = [Self.requests[0], Self.requests[1]] + bad + [mixed, #"{"jsonrpc":"2.0","id":9,"method":"ping"}"#]
        Self.write(lines.joined(separator: "\n") + "\n", to: input.write)
        close(input.write)
        let server = await CoachServer.make(tools)
        let transport = StdioLineTransport(
            input: input.read, output: output.write, logger: Logger(label: "test"), answerTimeout: .seconds(600))
        async let written = Self.readAll(output.read)
        let started = ContinuousClock.now
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
        close(output.write)
        close(input.read)
        #expect(ContinuousClock.now - started < .seconds(300))
        let answers = String(decoding: await written, as: UTF8.self).split(separator: "\n").map(String.init)
        let refusals = answers.filter { $0.contains(#""id":null"#) }
        #expect(refusals.count == bad.count + 1, "\(answers)")
        #expect(refusals.filter { $0.contains(#""code":-32700"#) }.count == 1)
        #expect(refusals.filter { $0.contains(#""code":-32600"#) }.count == bad.count)
        let ids = answers.reduce(into: Set<String>()) { $0.formUnion(RequestIDs.responses(in: Data($1.utf8))) }
        #expect(ids == ["n:1", "n:9", "n:10"], "\(answers)")
        #expect(answers.count == bad.count + 4)
    }
}
