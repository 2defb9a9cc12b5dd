/// An element the importer has no model for (`VisionPrescription`, anything newer), kept
/// verbatim: its name, its attributes in order, and its children.
public struct RawElement: Hashable, Sendable, Codable {
    public var name: String
    public var attributes: [MetadataEntry]
    public var children: [RawElement]

    public init(name: String, attributes: [MetadataEntry] = [], children: [RawElement] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }
}
