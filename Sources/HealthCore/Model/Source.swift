/// The app or device that wrote a sample (`sourceName`, `sourceVersion`).
///
/// `name` is often personal ("Simon’s iPhone", emoji): never classify a device by it alone,
/// use ``Device`` instead.
public struct Source: Hashable, Sendable, Codable {
    public var name: String
    public var version: String?

    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }
}
