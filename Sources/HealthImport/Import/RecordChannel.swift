import Foundation

/// A bounded hand-over of record batches from the parser thread to the writer: memory
/// stays at `capacity` batches however large the export. The parser blocks its own thread
/// while the queue is full; the writer takes batches on a thread that may block
/// (``receive()``) or from async code (``next()``), which suspends and holds no thread.
///
/// Written batches travel back (``giveBack(_:)``, ``freeWritten()``) so that the parser
/// frees the records: freeing 300,000 records a second is work the writer should not do.
final class RecordChannel<Batch: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var written: [Batch] = []
    private let capacity: Int
    private var closed = false
    private var producerError: (any Error)?
    private var consumerStopped = false
    private var bytes: Int64 = 0
    private var records = 0
    /// An async consumer suspended on an empty queue (``next()``).
    private var waiting: CheckedContinuation<Batch?, any Error>?

    /// Four batches of 4,096 records: enough for the parser to go on while SQLite writes out
    /// its cache (five were as fast as eight on 1 and 4 GB exports, and 8 MiB less at the
    /// peak). When a batch read while the writer waits travelled unprepared and was held
    /// beside its prepared form while written, five took a 4 GB export to 92.9 MiB; four,
    /// 87.2 MiB, as fast on 150 MB. (Its samples are now moved into the prepared form.)
    init(capacity: Int = 4) { self.capacity = capacity }

    struct ConsumerStopped: Error {}

    /// Producer: hands over a batch; blocks while the queue is full. Throws when the
    /// consumer has stopped (the import failed on the writing side).
    func send(_ batch: consuming Batch, records count: Int, bytesRead: Int64) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity, !consumerStopped { condition.wait() }
        if consumerStopped { throw ConsumerStopped() }
        queue.append(batch)
        bytes = bytesRead
        records += count
        condition.broadcast()
        if let consumer = waiting {
            waiting = nil
            consumer.resume(returning: queue.removeFirst())
        }
    }

    /// Producer: no more batches; `error` when parsing failed.
    func close(error: (any Error)? = nil) {
        condition.lock()
        closed = true
        producerError = error
        condition.broadcast()
        let consumer = waiting
        waiting = nil
        condition.unlock()
        if let error { consumer?.resume(throwing: error) } else { consumer?.resume(returning: nil) }
    }

    /// Consumer: the next batch, `nil` at the end; rethrows the producer's error.
    func receive() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty, !closed { condition.wait() }
        if let producerError { throw producerError }
        if queue.isEmpty { return nil }
        condition.broadcast()
        return queue.removeFirst()
    }

    /// Consumer, from async code: the next batch, `nil` at the end; rethrows the producer's
    /// error. Suspends while the queue is empty (the producer's next batch resumes it).
    func next() async throws -> Batch? {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            if let producerError {
                continuation.resume(throwing: producerError)
            } else if !queue.isEmpty {
                continuation.resume(returning: queue.removeFirst())
                condition.broadcast()
            } else if closed {
                continuation.resume(returning: nil)
            } else {
                waiting = continuation
            }
        }
    }

    /// Consumer: hands a written batch back to the producer.
    func giveBack(_ batch: consuming Batch) {
        condition.lock()
        written.append(batch)
        condition.unlock()
    }

    /// Producer: frees the batches written since the last call, on the producer's thread
    /// and outside the lock.
    func freeWritten() {
        condition.lock()
        let done = written
        written = []
        condition.unlock()
        withExtendedLifetime(done) {}
    }

    /// Consumer: stop the producer (the writing side failed).
    func stop() {
        condition.lock()
        consumerStopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether no batch waits for the consumer (it is writing its last one, or waiting).
    var isEmpty: Bool {
        condition.lock()
        defer { condition.unlock() }
        return queue.isEmpty
    }

    /// Bytes parsed and records handed over so far.
    var progress: (bytes: Int64, records: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (bytes, records)
    }
}
