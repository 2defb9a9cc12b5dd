import Foundation

/// A correlation (blood pressure, food): a sample that groups other samples.
/// In an Apple export its children also appear at top level; stores keep them once.
public struct Correlation: Hashable, Sendable, Codable {
    public var type: SampleType
    public var start: Date
    public var end: Date
    public var source: Source
    public var device: Device?
    public var creationDate: Date?
    public var metadata: [MetadataEntry]
    public var utcOffsetSeconds: Int?
    /// The UUID its writer gave; `nil` for an export record (see ``uuid``).
    public var givenUUID: UUID?
    public var objects: [Sample]

    public init(
        type: SampleType, start: Date, end: Date, source: Source, device: Device? = nil,
        creationDate: Date? = nil, metadata: [MetadataEntry] = [], utcOffsetSeconds: Int? = nil,
        objects: [Sample] = [], uuid: UUID? = nil
    ) {
        self.type = type
        self.start = start
        self.end = end
        self.source = source
        self.device = device
        self.creationDate = creationDate
        self.metadata = metadata
        self.utcOffsetSeconds = utcOffsetSeconds
        self.objects = objects
        self.givenUUID = uuid
    }

    /// The correlation's identity: the UUID its writer gave, else the one derived from its content key.
    public var uuid: UUID { givenUUID ?? contentKey.uuid }

    /// The correlation as a plain sample (no value), for indexing and change tracking.
    public var header: Sample {
        Sample(
            type: type, start: start, end: end, source: source, device: device,
            creationDate: creationDate, metadata: metadata, utcOffsetSeconds: utcOffsetSeconds,
            uuid: givenUUID)
    }
}
