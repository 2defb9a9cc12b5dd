import Foundation
import HealthCore

/// Where a store's data lies, as `import` and `stats` print it: the first and the last day
/// with data of each kind (``DataAnchor/days(of:in:)``), in the system's zone.
enum DataRanges {
    /// The header line (without indentation).
    static func header(zone: TimeZone = .current) -> String { "days with data, first to last (\(zone.identifier)):" }

    /// `steps     2024-12-17 to 2024-12-30`, one line per kind with data, in the order of
    /// ``HealthDataCategory/allCases``; none for an empty store.
    static func lines(_ spans: [SampleTypeSpan], zone: TimeZone = .current) -> [String] {
        let days = DataAnchor.days(of: spans, in: zone)
        return HealthDataCategory.allCases.compactMap { kind in
            days[kind].map {
                "\(kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))\($0.lowerBound) to \($0.upperBound)"
            }
        }
    }

    /// The same for JSON: kind → `{"first": "2024-12-17", "last": "2024-12-30"}`.
    static func json(_ spans: [SampleTypeSpan], zone: TimeZone = .current) -> [String: [String: String]] {
        var kinds: [String: [String: String]] = [:]
        for (kind, range) in DataAnchor.days(of: spans, in: zone) {
            kinds[kind.rawValue] = ["first": range.lowerBound.description, "last": range.upperBound.description]
        }
        return kinds
    }
}
