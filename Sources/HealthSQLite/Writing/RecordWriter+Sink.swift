import HealthCore

extension RecordWriter: HealthRecordSink {
    /// Records with their content keys, computed by ``RecordWriter/prepare(_:)`` on any
    /// thread (an import computes them on whichever of its two threads has time).
    public struct PreparedBatch: Sendable {
        /// The records that are not plain samples, in order: the plain samples are kept once,
        /// in ``samples``, not a second time inside their records (a batch waiting in the
        /// import's queue weighed half as much again).
        let others: [HealthRecord]
        let keys: [ContentKey]
        /// `true` for a plain quantity or category sample without a given UUID (written in runs).
        let isSample: [Bool]
        /// The plain samples, in order: taken out of their records here, on the producer's
        /// thread, so that the writer reads them in place (a sample taken out of a record is
        /// a copy, a retain per field).
        let samples: [Sample]

        public var count: Int { keys.count }
    }

    /// Computes the records' content keys: pure, on any thread. The plain samples are moved
    /// out of `records`, not copied: a copy retained every shared string of a sample once
    /// more, and freeing the records released them again, on the other thread (about a
    /// twentieth of an import's CPU, most of it two cores taking turns at the same counts).
    public static func prepare(_ records: consuming [HealthRecord]) -> PreparedBatch {
        var records = records
        var keys: [ContentKey] = []
        var isSample: [Bool] = []
        var samples: [Sample] = []
        var others: [HealthRecord] = []
        keys.reserveCapacity(records.count)
        isSample.reserveCapacity(records.count)
        samples.reserveCapacity(records.count)
        // One builder's storage for every key, and a type's tag computed once per run of it.
        var builder = ContentKeyBuilder(tag: "sample")
        var taggedType = ""
        var typeTag: UInt64 = 0
        records.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                // A sample with a writer-given UUID may replace a stored one: written alone.
                guard buffer[index].isPlainSample, case .sample(let sample) = buffer.take(index) else {
                    keys.append(buffer[index].contentKey)
                    isSample.append(false)
                    others.append(buffer[index])
                    continue
                }
                if sample.type.identifier != taggedType {
                    taggedType = sample.type.identifier
                    typeTag = ContentKey.typeTag(taggedType)
                }
                keys.append(sample.contentKey(typeTag: typeTag, builder: &builder))
                isSample.append(true)
                samples.append(sample)
            }
        }
        return PreparedBatch(others: others, keys: keys, isSample: isSample, samples: samples)
    }

    /// Writes a batch in order. Runs of plain samples, most of any export, go through
    /// multi-row statements; everything else through ``write(_:key:)``.
    public func write(_ batch: PreparedBatch) throws {
        try batch.samples.withUnsafeBufferPointer { samples in
            try batch.keys.withUnsafeBufferPointer { keys in
                var index = 0
                var sample = 0
                var other = 0
                while index < batch.count {
                    guard batch.isSample[index] else {
                        try write(batch.others[other], key: keys[index])
                        other += 1
                        index += 1
                        continue
                    }
                    // A sample that may have a stored twin is looked for first (mayHaveTwin).
                    if try mayHaveTwin(samples, at: sample) {
                        try write(.sample(samples[sample]), key: keys[index])
                        sample += 1
                        index += 1
                        continue
                    }
                    var end = index + 1
                    while end < batch.count, end - index < sampleRows.maxRows, batch.isSample[end],
                        try !mayHaveTwin(samples, at: sample + end - index)
                    {
                        end += 1
                    }
                    try writeSamples(
                        UnsafeBufferPointer(rebasing: samples[sample..<sample + (end - index)]),
                        keys: UnsafeBufferPointer(rebasing: keys[index..<end]))
                    sample += end - index
                    index = end
                }
            }
        }
    }
}

extension UnsafeMutableBufferPointer where Element == HealthRecord {
    /// The record at `index`, moved out; a record that holds nothing to free is left there.
    fileprivate func take(_ index: Int) -> HealthRecord {
        let slot = baseAddress! + index
        let record = slot.move()
        slot.initialize(to: .activitySummary(ActivitySummary(dateComponents: "")))
        return record
    }
}

extension HealthRecord {
    /// A quantity or category sample without a writer-given UUID: one written in runs.
    fileprivate var isPlainSample: Bool {
        if case .sample(let sample) = self { sample.givenUUID == nil } else { false }
    }
}
