import Foundation
import HealthCore
import HealthSync
import HealthWire

/// A new state folder's path.
func stateFolder() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-sync-\(UUID().uuidString)").path
}

/// A state folder (a new one, or `folder`) enrolled as device `d-1` of user `alice` with a
/// fixed key.
func enrolledState(in folder: String = stateFolder()) throws -> SyncState {
    let state = try SyncState(folder: folder)
    try state.enrol(
        Enrolment(server: "http://127.0.0.1:1", userID: "alice", deviceID: "d-1", deviceName: "test", enrolledAt: Date()),
        credentials: Credentials(
            token: "token", keys: [.init(id: "k-1", secret: Data(repeating: 7, count: 32), createdAt: Date())]))
    return state
}

/// A transport that answers from a script, then acknowledges every batch like the server
/// (decrypting it with the device's key), and records every request.
final class ScriptedTransport: SyncTransport, @unchecked Sendable {
    enum Step {
        case answer(SyncResponse)
        case fail(SyncTransportError)
    }

    private let lock = NSLock()
    private var script: [Step]
    private(set) var requests: [SyncRequest] = []
    /// The items of every acknowledged batch, in order.
    private(set) var acknowledged: [[SyncItem]] = []

    /// Awaited before each answer, with the request's index (0 for the first).
    let beforeAnswer: @Sendable (Int) async -> Void

    init(_ script: [Step] = [], beforeAnswer: @escaping @Sendable (Int) async -> Void = { _ in }) {
        self.script = script
        self.beforeAnswer = beforeAnswer
    }

    func append(_ steps: [Step]) { lock.withLock { script += steps } }

    func send(_ request: SyncRequest) async throws -> SyncResponse {
        let (index, step) = lock.withLock { () -> (Int, Step?) in
            requests.append(request)
            return (requests.count - 1, script.isEmpty ? nil : script.removeFirst())
        }
        await beforeAnswer(index)
        switch step {
        case .answer(let response): return response
        case .fail(let error): throw error
        case nil:
            let envelope = try JSONDecoder().decode(SyncEnvelope.self, from: request.body ?? Data())
            let plaintext = try envelope.open(
                userID: "alice", key: try SyncKey(id: "k-1", secret: Data(repeating: 7, count: 32)), limit: 64 << 20)
            let content = try SampleWire.decoder().decode(SyncBatchContent.self, from: plaintext)
            lock.withLock { acknowledged.append(content.items) }
            let added = content.items.filter { if case .add = $0 { true } else { false } }.count
            return SyncResponse(
                status: 200,
                body: Data(
                    #"{"batch_id":"\#(envelope.batchID.uuidString.lowercased())","sequence":\#(envelope.sequence),"added":\#(added),"duplicates":0,"deleted":\#(content.items.count - added),"unknown":0,"days_recomputed":1}"#
                        .utf8))
        }
    }

    func problem(_ status: Int, _ detail: String, headers: [String: String] = [:]) -> Step {
        .answer(SyncResponse(status: status, headers: headers, body: Data(#"{"status":\#(status),"detail":"\#(detail)"}"#.utf8)))
    }
}

/// A clock that only moves when the engine sleeps, and records the sleeps.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private(set) var sleeps: [Double] = []

    init(_ start: Date) { current = start }

    var now: Date { lock.withLock { current } }

    func environment(
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { $0.upperBound / 2 },
        conditions: DeviceConditions = DeviceConditions()
    ) -> SyncEnvironment {
        SyncEnvironment(
            now: { self.now },
            sleep: { seconds in
                self.lock.withLock {
                    self.sleeps.append(seconds)
                    self.current += seconds
                }
            }, random: random, conditions: { conditions })
    }
}

/// `count` step samples of the Watch, one every `spacing` seconds back from `end`.
func steps(_ count: Int, endingAt end: Date, spacing: Double) -> [Sample] {
    (0..<count).map { index in
        let start = end.addingTimeInterval(-Double(index + 1) * spacing)
        return Sample(
            type: .stepCount, start: start, end: start + 60, value: .quantity(Double(index % 90 + 10), unit: "count"),
            source: Source(name: "Watch"))
    }
}

/// `count` instantaneous heart rates of the Watch, one every `spacing` seconds back from `end`.
func heartRates(_ count: Int, endingAt end: Date, spacing: Double) -> [Sample] {
    (0..<count).map { index in
        let start = end.addingTimeInterval(-Double(index + 1) * spacing)
        return Sample(
            type: .heartRate, start: start, end: start, value: .quantity(Double(index % 100 + 50), unit: "count/min"),
            source: Source(name: "Watch"))
    }
}
