import Foundation

/// One completed import, as recorded in the store.
public struct ImportRun: Sendable, Hashable, Codable {
    public var id: Int64
    public var fingerprint: String
    public var path: String
    public var inputKind: String
    public var startedAt: Date
    public var finishedAt: Date
    public var locale: String?
    public var exportDate: Date?
    public var exportVersion: Int?
    public var bytes: Int64
    public var recordsRead: Int
    public var recordsAdded: Int
    public var duplicates: Int
    /// The hash of the full content the import read (`nil` for imports made before it was kept).
    public var contentHash: String?

    public init(
        id: Int64 = 0, fingerprint: String, path: String, inputKind: String, startedAt: Date, finishedAt: Date,
        locale: String?, exportDate: Date?, exportVersion: Int?, bytes: Int64, recordsRead: Int,
        recordsAdded: Int, duplicates: Int, contentHash: String? = nil
    ) {
        self.id = id
        self.fingerprint = fingerprint
        self.path = path
        self.inputKind = inputKind
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.locale = locale
        self.exportDate = exportDate
        self.exportVersion = exportVersion
        self.bytes = bytes
        self.recordsRead = recordsRead
        self.recordsAdded = recordsAdded
        self.duplicates = duplicates
        self.contentHash = contentHash
    }
}
