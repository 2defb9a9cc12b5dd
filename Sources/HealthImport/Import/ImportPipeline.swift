import Foundation
import HealthCore
import HealthImportReader

/// An export read on a thread of its own while a sink writes on the caller's: on a
/// two-core machine both cores work. Each batch is prepared for the sink (content keys,
/// for a store) by whichever side has time (``HandedBatch``), and the batches written are
/// freed on the reading thread (a batch the writer prepared leaves only empty records
/// behind there: its samples are moved into the prepared batch). At most `capacity` batches
/// are in flight.
enum ImportPipeline {
    /// Reads `reader` into `sink`; `written` is called on the caller's thread after each
    /// batch with the bytes of the main XML parsed and the records handed over so far.
    /// An error on either side stops both and is rethrown here.
    static func run<Sink: HealthRecordSink>(
        _ reader: AppleExportReader, into sink: Sink, batchSize: Int,
        written: (_ bytes: Int64, _ records: Int) -> Void = { _, _ in }
    ) throws -> ExportReading {
        let job = ReadJob<Sink.PreparedBatch>(
            reader: reader, batchSize: batchSize, prepare: Sink.prepare, writerPrepares: true)
        let done = DispatchSemaphore(value: 0)
        job.start { done.signal() }
        do {
            while let handed = try job.channel.receive() {
                let batch = job.prepared(consume handed)
                try sink.write(batch)
                job.handOver(batch, written)
            }
        } catch {
            job.channel.stop()
            done.wait()
            throw error
        }
        done.wait()
        return job.result
    }
}

extension ImportPipeline {
    /// ``run(_:into:batchSize:written:)`` for an async writer: the export is read and each
    /// batch `prepare`d on a thread of its own, and `write` awaits each batch on the caller's
    /// task — no thread waits for the writer, and at most the channel's capacity of batches
    /// is in flight.
    static func run<Batch: Sendable>(
        _ reader: AppleExportReader, batchSize: Int, prepare: @escaping (consuming [HealthRecord]) -> Batch,
        write: (Batch) async throws -> Void, written: (_ bytes: Int64, _ records: Int) -> Void = { _, _ in }
    ) async throws -> ExportReading {
        // The writer here is async code: it never prepares (CPU work on the cooperative pool).
        let job = ReadJob<Batch>(reader: reader, batchSize: batchSize, prepare: prepare, writerPrepares: false)
        let (ended, end) = AsyncStream<Void>.makeStream()
        job.start { end.finish() }
        do {
            while let handed = try await job.channel.next() {
                let batch = job.prepared(consume handed)
                try await write(batch)
                job.handOver(batch, written)
            }
        } catch {
            job.channel.stop()
            for await _ in ended {}
            throw error
        }
        for await _ in ended {}
        return job.result
    }

    /// A `written` callback for ``run(_:into:batchSize:written:)`` that calls `progress` at
    /// most every `interval` seconds.
    static func reporting(
        _ progress: ((ImportProgress) -> Void)?, reader: AppleExportReader, started: Date, interval: TimeInterval
    ) -> (_ bytes: Int64, _ records: Int) -> Void {
        var lastReport = Date()
        return { bytes, records in
            guard let progress, Date().timeIntervalSince(lastReport) >= interval else { return }
            lastReport = Date()
            progress(
                ImportProgress(
                    bytes: bytes, totalBytes: reader.mainXMLSize, records: records,
                    elapsed: lastReport.timeIntervalSince(started)))
        }
    }
}

/// A batch as the reading thread hands it over: prepared for the sink, or as read, for the
/// writer to prepare.
private enum HandedBatch<Batch: Sendable>: Sendable {
    case prepared(Batch)
    case read([HealthRecord])
}

/// The reading half, run on its own thread; touched by the caller only after it ends.
///
/// Preparing a batch (content keys, for a store) is about a sixth of the reading thread's
/// work. The reading thread does it while the writer has a batch to write; a batch read
/// while the writer waits goes over as read and the writer prepares it. So the work falls to
/// whichever side has time, and neither waits for the other more than it must.
private final class ReadJob<Batch: Sendable>: @unchecked Sendable {
    let reader: AppleExportReader
    let batchSize: Int
    let prepare: (consuming [HealthRecord]) -> Batch
    /// Whether a batch read while the writer waits goes over as read.
    let writerPrepares: Bool
    let channel = RecordChannel<HandedBatch<Batch>>()
    private(set) var reading: ExportReading?

    init(
        reader: AppleExportReader, batchSize: Int, prepare: @escaping (consuming [HealthRecord]) -> Batch, writerPrepares: Bool
    ) {
        self.reader = reader
        self.batchSize = batchSize
        self.prepare = prepare
        self.writerPrepares = writerPrepares
    }

    /// Starts ``run()`` on a thread of its own (a roomy stack for the parser); `ended` is
    /// called on it once reading has ended.
    func start(ended: @escaping @Sendable () -> Void) {
        let thread = Thread {
            self.run()
            ended()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The batch to write: `handed` itself, or prepared here, on the writer's thread (the
    /// records it was read as are handed over to the preparing, which takes them apart).
    func prepared(_ handed: consuming HandedBatch<Batch>) -> Batch {
        switch consume handed {
        case .prepared(let batch): batch
        case .read(let records): prepare(consume records)
        }
    }

    /// After the caller wrote `batch`: hands it back to be freed on the reading thread, and
    /// tells `written` how far reading has come.
    func handOver(_ batch: consuming Batch, _ written: (_ bytes: Int64, _ records: Int) -> Void) {
        channel.giveBack(.prepared(batch))
        let (bytes, records) = channel.progress
        written(bytes, records)
    }

    /// What was read, once the channel has closed without an error.
    var result: ExportReading {
        guard let reading else { preconditionFailure("the channel closed without an error or a result") }
        return reading
    }

    func run() {
        do {
            reading = try reader.read(batchSize: batchSize) { [channel, prepare, writerPrepares] batch, bytesRead in
                let count = batch.count
                let handed: HandedBatch<Batch> =
                    writerPrepares && channel.isEmpty ? .read(consume batch) : .prepared(prepare(consume batch))
                try channel.send(handed, records: count, bytesRead: bytesRead)
                channel.freeWritten()
            }
            channel.close()
        } catch {
            channel.close(error: error)
        }
    }
}
