import Dispatch
import Foundation
import HealthCore
import HealthExport
import Hummingbird

/// A response body fed by a synchronous CSV export running on a thread of its own (the
/// store's cursor is synchronous and must not block the server's threads — nor Dispatch's
/// global queues, whose threads on Linux are Swift concurrency's: a PostgreSQL cursor
/// waits there for async work, and two exports at once on two cores hung the server,
/// 2026-11-25). At most four
/// 64 KiB chunks wait for the client: a slow reader slows the export instead of filling
/// memory, and a reader that goes away stops it.
enum CSVStream {
    static func body(_ produce: @escaping @Sendable (CSVOutput) throws -> Void) -> ResponseBody {
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        let gate = DispatchSemaphore(value: 4)
        let cancelled = Locked(false)
        continuation.onTermination = { _ in
            cancelled.withLock { $0 = true }
            gate.signal()
        }
        Thread {
            do {
                let output = CSVOutput { bytes in
                    gate.wait()
                    if cancelled.withLock({ $0 }) { throw CancellationError() }
                    continuation.yield(ByteBuffer(bytes: bytes))
                }
                try produce(output)
                try output.flush()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }.start()
        return ResponseBody { writer in
            for try await chunk in stream {
                try await writer.write(chunk)
                gate.signal()
            }
            try await writer.finish(nil)
        }
    }
}
