import Foundation
import HealthCore

extension SampleWire {
    /// `header` (a correlation's own sample) with `members` as its readings, or a
    /// ``WireFieldError`` naming the field: members only on a correlation, 1 to 100 of them,
    /// each a quantity or category sample without members or workout of its own.
    func correlation(_ header: Sample, members: [SampleWire], pointer: String) throws -> Correlation {
        guard header.type.kind == .correlation, workout == nil else {
            throw WireFieldError(
                "only a correlation (an HKCorrelationTypeIdentifier… type) carries members", pointer: "\(pointer)/members")
        }
        guard (1...Self.maximumMembers).contains(members.count) else {
            throw WireFieldError("a correlation carries 1 to \(Self.maximumMembers) members", pointer: "\(pointer)/members")
        }
        let objects = try members.enumerated().map { index, member -> Sample in
            let at = "\(pointer)/members/\(index)"
            guard member.members == nil, member.workout == nil else {
                throw WireFieldError("a member carries no members or workout of its own", pointer: at)
            }
            let object = try member.sample(pointer: at)
            guard object.type.kind == .quantity || object.type.kind == .category else {
                throw WireFieldError("a member is a quantity or category sample", pointer: "\(at)/type")
            }
            return object
        }
        return Correlation(
            type: header.type, start: header.start, end: header.end, source: header.source, device: header.device,
            metadata: header.metadata, objects: objects, uuid: header.givenUUID)
    }
}
