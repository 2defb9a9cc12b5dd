import Foundation

/// ``PlausibleRange/violation(value:unit:type:)`` for a reader that checks many samples: the
/// rows of the last few pairs of type and unit seen are kept with their conversions worked
/// out, so that the samples of an export cost no look-up (two dictionary look-ups a sample
/// were a fiftieth of an import's parsing; a watch's samples alternate a few types).
///
/// It answers exactly as ``PlausibleRange/violation(value:unit:type:)``: a value that passes
/// a kept row passes there, with the same arithmetic; anything else is asked of it.
public struct PlausibilityCheck: Sendable {
    /// A pair of type and unit with its row's bounds and the conversion of its unit to the
    /// row's, as ``HealthUnit/convert(_:to:)`` computes it for units without an offset.
    private struct Kept: Sendable {
        var type: String
        var unit: String
        var bounds: ClosedRange<Double>
        /// `nil`: the unit is the row's own (the value is compared as it is).
        var scale: (numerator: Double, denominator: Double)?
    }

    private var kept: [Kept] = []
    private var next = 0
    private static let slots = 8

    /// Set by the last check when its sample's type has a row and its unit does not parse:
    /// the sample passes (the generic bound), but no figure can convert it — a reader warns.
    public private(set) var lastUnitUnread = false

    /// The last pair of type and unit warned of as unread, with its message.
    private var lastUnread: (type: String, unit: String, message: String)?

    public init() {}

    /// The warning for `record` when the last check found its unit unread
    /// (``lastUnitUnread``): one message per pair of type and unit, built once for a run
    /// of them; `nil` otherwise.
    public mutating func unreadUnitWarning(_ record: HealthRecord) -> String? {
        guard lastUnitUnread, case .sample(let sample) = record, case .quantity(_, let unit) = sample.value else {
            return nil
        }
        if lastUnread?.type != sample.type.identifier || lastUnread?.unit != unit {
            lastUnread = (
                sample.type.identifier, unit,
                "\(sample.type.identifier) in '\(unit.prefix(40))': a unit healthpipe does not read (kept, left out of the figures)"
            )
        }
        return lastUnread?.message
    }

    /// Why `value` in `unit` is implausible for `type`, or `nil`.
    public mutating func violation(value: Double, unit: String, type: SampleType) -> String? {
        lastUnitUnread = false
        if value.isFinite {
            for index in kept.indices where kept[index].type == type.identifier && kept[index].unit == unit {
                let converted = kept[index].scale.map { value * $0.numerator / $0.denominator } ?? value
                if kept[index].bounds.contains(converted) { return nil }
                break
            }
            keep(type: type, unit: unit)
        }
        return PlausibleRange.violation(value: value, unit: unit, type: type)
    }

    /// Why a record is implausible, or `nil`: ``PlausibleRange/violation(of:)``, with a
    /// quantity sample checked against the kept rows; a sample's span
    /// (``PlausibleRange/spanViolation(start:end:)``) first.
    public mutating func violation(of record: HealthRecord) -> String? {
        lastUnitUnread = false
        guard case .sample(let sample) = record else { return PlausibleRange.violation(of: record) }
        // The span too, as every other way in checks it (an end before the start, 31 days).
        if let problem = PlausibleRange.spanViolation(start: sample.start, end: sample.end) { return problem }
        guard case .quantity(let value, let unit) = sample.value else { return nil }
        return violation(value: value, unit: unit, type: sample.type)
    }

    /// Keeps the pair when its row, its unit and the row's unit are known, of one dimension,
    /// and without an offset (temperatures are always asked of the table).
    private mutating func keep(type: SampleType, unit: String) {
        guard !kept.contains(where: { $0.type == type.identifier && $0.unit == unit }),
            let (range, own) = PlausibleRange.checks[type.identifier], let own
        else { return }
        guard let parsed = try? HealthUnit(parsing: unit) else {
            lastUnitUnread = true
            return
        }
        guard parsed.dimension == own.dimension else { return }
        let scale: (numerator: Double, denominator: Double)?
        if parsed.symbol == own.symbol {
            scale = nil
        } else if parsed.offset == 0, own.offset == 0 {
            scale = (parsed.numerator * own.denominator, parsed.denominator * own.numerator)
        } else {
            return
        }
        let entry = Kept(type: type.identifier, unit: unit, bounds: range.bounds, scale: scale)
        if kept.count < Self.slots {
            kept.append(entry)
        } else {
            kept[next] = entry
            next = (next + 1) % Self.slots
        }
    }
}
