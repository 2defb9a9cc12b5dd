import Foundation
import HealthBasics
import HealthCore

/// One change a sync batch carries, in the order the device's change feed gave it:
/// `{"op": "add", "sample": {SampleWire}}` or `{"op": "delete", "uuid": "…", "type": "HK…"}`.
public enum SyncItem: Codable, Sendable, Hashable {
    /// A sample stored on the device (an upsert by UUID on the server).
    case add(SampleWire)
    /// A sample deleted on the device: its tombstone.
    case delete(uuid: UUID, type: String)

    /// The item of one change of a feed.
    public init(_ change: SampleChange) {
        switch change {
        case .added(let sample, _): self = .add(SampleWire(sample))
        case .deleted(let object): self = .delete(uuid: object.uuid, type: object.type.identifier)
        }
    }

    enum CodingKeys: String, CodingKey {
        case op, sample, uuid, type
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .op) {
        case "add": self = .add(try container.decode(SampleWire.self, forKey: .sample))
        case "delete":
            self = .delete(
                uuid: try container.decode(UUID.self, forKey: .uuid), type: try container.decode(String.self, forKey: .type))
        default:
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "op must be add or delete")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .add(let sample):
            try container.encode("add", forKey: .op)
            try container.encode(sample, forKey: .sample)
        case .delete(let uuid, let type):
            try container.encode("delete", forKey: .op)
            try container.encode(uuid, forKey: .uuid)
            try container.encode(type, forKey: .type)
        }
    }
}

/// The plaintext of a sync batch: `{"items": [SyncItem…]}`, encoded with
/// ``SampleWire/encoder(pretty:)``.
public struct SyncBatchContent: Codable, Sendable, Hashable {
    public var items: [SyncItem]

    public init(items: [SyncItem]) { self.items = items }

    /// The items of a batch's JSON counted without decoding it: the objects that are
    /// elements of an array under a key of the root object (`{"items": [{…}, {…}]}`), with
    /// strings and escapes skipped. Stops counting past `limit` (returns `limit + 1`).
    /// Malformed JSON is counted as far as it goes; the decoder then refuses it.
    public static func itemCount(in json: Data, stoppingAfter limit: Int) -> Int {
        var count = 0
        // Open containers: true for an object, false for an array (a few levels deep).
        var stack: [Bool] = []
        var strings = JSONStringScanner()
        for byte in json where !strings.consume(byte) {
            switch byte {
            case UInt8(ascii: "{"):
                if stack == [true, false] {
                    count += 1
                    if count > limit { return count }
                }
                stack.append(true)
            case UInt8(ascii: "["): stack.append(false)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if !stack.isEmpty { stack.removeLast() }
            default: break
            }
        }
        return count
    }
}
