/// Where health records go, in order: a store's writer, or anything that stores or
/// forwards them. Readers (an Apple export, Health Auto Export JSON, a sync batch) produce
/// ``HealthRecord`` values and know nothing of the sink; the sink deduplicates them.
///
/// Writing is two steps so that a pipelined producer can do the half that needs no
/// storage — content keys, for a store — on its own thread, off the writer's:
/// ``prepare(_:)`` is pure and may run on any thread; ``write(_:)-(PreparedBatch)`` runs
/// wherever the sink lives. `write(_ records:)` does both on the caller's thread.
public protocol HealthRecordSink {
    /// A batch made ready for writing.
    associatedtype PreparedBatch: Sendable

    /// Readies `records` for ``write(_:)-(PreparedBatch)``: pure, callable from any thread.
    /// Takes the records over: a sink may move them into its batch instead of copying.
    static func prepare(_ records: consuming [HealthRecord]) -> PreparedBatch

    /// Writes a prepared batch, in order.
    func write(_ batch: PreparedBatch) throws
}

extension HealthRecordSink {
    /// Prepares and writes `records`, in order, on the caller's thread.
    public func write(_ records: [HealthRecord]) throws {
        try write(Self.prepare(records))
    }
}
