import Foundation

/// One exchange with the coach. Only when it happened and what kind it was are kept, never
/// what was said: the snapshot needs "minutes since the last interaction", nothing more.
public struct CoachInteraction: Hashable, Sendable, Codable {
    public var id: Int64
    public var at: Date
    /// A short label such as `chat`, `check-in` or `plan`.
    public var kind: String

    public init(id: Int64 = 0, at: Date, kind: String = "chat") {
        self.id = id
        self.at = at
        self.kind = kind
    }
}
