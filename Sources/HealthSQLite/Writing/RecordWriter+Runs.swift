import Foundation
import HealthCore

extension RecordWriter {
    /// What ``writeSamples(_:keys:)`` keeps of each sample of a run after binding it.
    struct RunFacts {
        var typeID: Int64
        var duration: TimeInterval
        var metadata: Int
        var beats: Int
    }

    /// The row ids a sample refers to.
    struct SampleIDs {
        var type: Int64
        var source: Int64
        var device: Int64?

        /// Whether two samples have the very same type, source and device values, bit for
        /// bit: the same strings and the same device storage (the parser interns them, so
        /// a run of records from one device has them), hence the same row ids. Compared in
        /// place, without a copy or a look-up; values equal but not identical look up again.
        static func sameOrigin(_ one: UnsafePointer<Sample>, _ other: UnsafePointer<Sample>) -> Bool {
            originFields.allSatisfy { field in
                memcmp(UnsafeRawPointer(one) + field.offset, UnsafeRawPointer(other) + field.offset, field.size) == 0
            }
        }

        private static let originFields: [(offset: Int, size: Int)] = [
            (MemoryLayout<Sample>.offset(of: \Sample.type)!, MemoryLayout<SampleType>.size),
            (MemoryLayout<Sample>.offset(of: \Sample.source)!, MemoryLayout<Source>.size),
            (MemoryLayout<Sample>.offset(of: \Sample.device)!, MemoryLayout<Device?>.size),
        ]
    }
}
