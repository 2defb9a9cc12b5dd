import HealthCore

/// A record and its content key, computed by the caller (an importer computes keys on its
/// parsing thread, off the writer's critical path). `key` must be `record.contentKey`.
public struct KeyedRecord: Sendable {
    public let record: HealthRecord
    public let key: ContentKey
    /// `true` for a plain quantity or category sample (read without copying the record).
    let isSample: Bool

    public init(record: HealthRecord, key: ContentKey) {
        self.record = record
        self.key = key
        if case .sample = record { isSample = true } else { isSample = false }
    }
}
