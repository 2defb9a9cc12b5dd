import Foundation
import GRDB
import HealthCore

extension SQLiteHealthStore {
    /// The correlations of `type` overlapping `interval` (``Sample/overlaps(_:)``), ordered
    /// by start, each with its member samples (a blood pressure's systolic and diastolic
    /// readings, a meal's nutrients) in storage order.
    public func correlations(
        of type: SampleType, overlapping interval: DateInterval
    ) async throws -> [(correlation: Sample, members: [Sample])] {
        try await database.pool.read { db in
            guard let (typeID, maxDuration) = try Self.typeInfo(db, type) else { return [] }
            let (condition, arguments) = Self.overlapping(interval, typeID: typeID, maxDuration: maxDuration)
            let correlations = try Self.fetchWithAnchors(
                db, where: condition + " ORDER BY s.start, s.anchor", arguments: arguments)
            var members: [Int64: [Sample]] = [:]
            for chunk in stride(from: 0, to: correlations.count, by: 500) {
                let anchors = correlations[chunk..<min(chunk + 500, correlations.count)].map { String($0.anchor) }
                let pairs = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT correlation, member FROM correlation_member
                        WHERE correlation IN (\(anchors.joined(separator: ","))) ORDER BY correlation, member
                        """)
                guard !pairs.isEmpty else { continue }
                let list = pairs.map { String($0["member"] as Int64) }.joined(separator: ",")
                let samples = Dictionary(
                    try Self.fetchWithAnchors(db, where: "s.anchor IN (\(list))", arguments: []).map { ($0.anchor, $0.sample) },
                    uniquingKeysWith: { first, _ in first })
                for pair in pairs {
                    if let sample = samples[pair["member"] as Int64] {
                        members[pair["correlation"] as Int64, default: []].append(sample)
                    }
                }
            }
            return correlations.map { ($0.sample, members[$0.anchor] ?? []) }
        }
    }
}
