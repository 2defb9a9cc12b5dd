/// The last few keys looked up and their row ids. Records alternate between a handful of
/// types, sources and devices, and comparing with those (strings shared with the parser's
/// interned copies compare by identity) is cheaper than hashing every time.
struct RecentIDs<Key: Equatable> {
    private var entries: [(key: Key, id: Int64)] = []
    private let capacity: Int

    init(capacity: Int = 4) { self.capacity = capacity }

    /// The id of `key`, from the recent ones or else from `lookUp`.
    mutating func id(for key: Key, orLookUp lookUp: (Key) throws -> Int64) rethrows -> Int64 {
        for entry in entries where entry.key == key { return entry.id }
        let id = try lookUp(key)
        entries.insert((key, id), at: 0)
        if entries.count > capacity { entries.removeLast() }
        return id
    }
}
