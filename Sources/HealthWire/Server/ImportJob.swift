import Foundation

/// An uploaded export and what importing it did.
public struct ImportJob: Codable, Hashable, Sendable {
    public enum State: String, Codable, Sendable {
        case queued, running, succeeded, failed
    }

    public var id: String
    public var state: State
    /// Size of the uploaded file.
    public var uploadBytes: Int64
    /// Bytes of the export read so far (of `totalBytes`, once known).
    public var bytesRead: Int64 = 0
    public var totalBytes: Int64 = 0
    /// Records parsed so far.
    public var records = 0
    public var added: Int?
    public var duplicates: Int?
    /// Records stored before that this import completed (a workout's route points, when
    /// `export.xml` was imported before its zip); absent when none.
    public var updated: Int?
    /// `true` when this exact export had been imported before (nothing was re-parsed).
    public var alreadyImported: Bool?
    public var daysRecomputed: Int?
    public var daily: UpsertCounts?
    /// `true` when the samples are stored but their days could not be computed after the
    /// commit: they will be by the next write or read of the person's days.
    public var daysPending: Bool?
    /// Why the import failed: what was wrong and where, never a health value.
    public var error: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?

    public init(id: String, state: State, uploadBytes: Int64, createdAt: Date) {
        self.id = id
        self.state = state
        self.uploadBytes = uploadBytes
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, state, records, added, duplicates, updated, daily, error
        case uploadBytes = "upload_bytes"
        case bytesRead = "bytes_read"
        case totalBytes = "total_bytes"
        case alreadyImported = "already_imported"
        case daysRecomputed = "days_recomputed"
        case daysPending = "days_pending"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case finishedAt = "finished_at"
    }

    /// This job, failed with `reason` now.
    public func failed(_ reason: String, at now: Date = Date()) -> ImportJob {
        var job = self
        job.state = .failed
        job.error = reason
        job.updatedAt = now
        job.finishedAt = now
        return job
    }
}
