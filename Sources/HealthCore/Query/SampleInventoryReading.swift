import Foundation

/// What a store holds of one sample type: how many samples, from when to when, from which sources.
public struct SampleTypeInventory: Hashable, Sendable, Codable {
    public var type: SampleType
    public var count: Int
    /// The first sample's start and the last sample's start.
    public var first: Date
    public var last: Date
    /// The sources' names, most samples first.
    public var sources: [String]

    public init(type: SampleType, count: Int, first: Date, last: Date, sources: [String]) {
        self.type = type
        self.count = count
        self.first = first
        self.last = last
        self.sources = sources
    }
}

/// A store that can list what it holds per type.
public protocol SampleInventoryReading: Sendable {
    /// One entry per stored type, by identifier.
    func sampleInventory() async throws -> [SampleTypeInventory]
}
