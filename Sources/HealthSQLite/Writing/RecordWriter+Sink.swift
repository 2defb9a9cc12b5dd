import HealthCore

extension RecordWriter: HealthRecordSink {
    /// Records with their content keys, computed by ``RecordWriter/prepare(_:)`` on the
    /// producer's thread (an import computes them on its parsing thread, off the writer's
    /// critical path).
    public struct PreparedBatch: Sendable {
        let records: [HealthRecord]
        let keys: [ContentKey]
        /// `true` for a plain quantity or category sample without a given UUID (written in runs).
        let isSample: [Bool]

        public var count: Int { records.count }
    }

    /// Computes the records' content keys: pure, on any thread.
    public static func prepare(_ records: [HealthRecord]) -> PreparedBatch {
        var keys: [ContentKey] = []
        var isSample: [Bool] = []
        keys.reserveCapacity(records.count)
        isSample.reserveCapacity(records.count)
        // Read in place: `for record in records` copies each record (a retain per field).
        records.withUnsafeBufferPointer { records in
            for index in records.indices {
                let (key, plain) = keyAndKind(records[index])
                keys.append(key)
                isSample.append(plain)
            }
        }
        return PreparedBatch(records: records, keys: keys, isSample: isSample)
    }

    /// A record's content key, and whether it is a plain sample: a sample with a
    /// writer-given UUID may replace a stored one, so it is written alone.
    private static func keyAndKind(_ record: borrowing HealthRecord) -> (ContentKey, Bool) {
        switch record {
        case .sample(let sample): (sample.contentKey, sample.givenUUID == nil)
        default: (record.contentKey, false)
        }
    }

    /// Writes a batch in order. Runs of plain samples, most of any export, go through
    /// multi-row statements; everything else through ``write(_:key:)``.
    public func write(_ batch: PreparedBatch) throws {
        try batch.records.withUnsafeBufferPointer { records in
            try batch.keys.withUnsafeBufferPointer { keys in
                var index = 0
                while index < records.count {
                    guard batch.isSample[index] else {
                        try write(records[index], key: keys[index])
                        index += 1
                        continue
                    }
                    var end = index + 1
                    while end < records.count, end - index < sampleRows.maxRows, batch.isSample[end] { end += 1 }
                    try writeSamples(
                        UnsafeBufferPointer(rebasing: records[index..<end]),
                        keys: UnsafeBufferPointer(rebasing: keys[index..<end]))
                    index = end
                }
            }
        }
    }
}
