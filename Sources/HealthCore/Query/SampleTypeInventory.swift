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

extension SampleTypeInventory {
    /// One entry per type from per-(type, source) rows ordered by type identifier, then
    /// count descending (the stores' `GROUP BY type, source`): first and last instants are
    /// seconds since 1970.
    public static func merging(
        _ rows: [(type: String, source: String, count: Int, first: Double, last: Double)]
    ) -> [SampleTypeInventory] {
        var inventory: [SampleTypeInventory] = []
        for row in rows {
            let type = SampleType(row.type)
            let (first, last) = (Date(timeIntervalSince1970: row.first), Date(timeIntervalSince1970: row.last))
            if var entry = inventory.last, entry.type == type {
                entry.count += row.count
                entry.first = min(entry.first, first)
                entry.last = max(entry.last, last)
                entry.sources.append(row.source)
                inventory[inventory.count - 1] = entry
            } else {
                inventory.append(
                    SampleTypeInventory(type: type, count: row.count, first: first, last: last, sources: [row.source]))
            }
        }
        return inventory
    }
}
