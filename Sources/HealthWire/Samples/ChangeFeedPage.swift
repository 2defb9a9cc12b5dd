import Foundation
import HealthCore

/// One page of a change feed, as `GET /v1/changes` answers and `healthpipe changes` prints:
/// `{"changes": [{"anchor", "uuid", "deleted": false, "sample": {…}} | {"anchor", "uuid",
/// "deleted": true, "type"}], "next_anchor", "has_more"}`.
public struct ChangeFeedPage: Encodable, Sendable {
    public struct Entry: Encodable, Sendable {
        public var anchor: Int64
        public var uuid: UUID
        public var deleted: Bool
        public var sample: SampleWire?
        public var type: String?
    }

    public var changes: [Entry]
    public var nextAnchor: Int64
    public var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case changes
        case nextAnchor = "next_anchor"
        case hasMore = "has_more"
    }

    public init(_ page: AnchoredChanges) {
        changes = page.changes.map { change in
            switch change {
            case .added(let sample, let anchor):
                Entry(anchor: anchor.rawValue, uuid: sample.uuid, deleted: false, sample: SampleWire(sample), type: nil)
            case .deleted(let object):
                Entry(
                    anchor: object.anchor.rawValue, uuid: object.uuid, deleted: true, sample: nil,
                    type: object.type.identifier)
            }
        }
        nextAnchor = page.nextAnchor.rawValue
        hasMore = page.hasMore
    }
}
