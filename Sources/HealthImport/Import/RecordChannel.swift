import Foundation
import HealthCore

/// A record and its content key, computed on the parsing thread.
struct KeyedRecord: Sendable {
    var record: HealthRecord
    var key: ContentKey
}

/// A bounded hand-over of record batches from the parser thread to the writer: memory
/// stays at `capacity` batches however large the export.
final class RecordChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [[KeyedRecord]] = []
    private let capacity: Int
    private var closed = false
    private var producerError: (any Error)?
    private var consumerStopped = false
    private var bytes: Int64 = 0
    private var records = 0

    init(capacity: Int = 8) { self.capacity = capacity }

    struct ConsumerStopped: Error {}

    /// Producer: hands over a batch; blocks while the queue is full. Throws when the
    /// consumer has stopped (the import failed on the writing side).
    func send(_ batch: [KeyedRecord], bytesRead: Int64) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity, !consumerStopped { condition.wait() }
        if consumerStopped { throw ConsumerStopped() }
        queue.append(batch)
        bytes = bytesRead
        records += batch.count
        condition.broadcast()
    }

    /// Producer: no more batches; `error` when parsing failed.
    func close(error: (any Error)? = nil) {
        condition.lock()
        closed = true
        producerError = error
        condition.broadcast()
        condition.unlock()
    }

    /// Consumer: the next batch, `nil` at the end; rethrows the producer's error.
    func receive() throws -> [KeyedRecord]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty, !closed { condition.wait() }
        if let producerError { throw producerError }
        if queue.isEmpty { return nil }
        condition.broadcast()
        return queue.removeFirst()
    }

    /// Consumer: stop the producer (the writing side failed).
    func stop() {
        condition.lock()
        consumerStopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Bytes parsed and records handed over so far.
    var progress: (bytes: Int64, records: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (bytes, records)
    }
}
