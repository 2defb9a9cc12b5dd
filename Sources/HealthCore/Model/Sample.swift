import Foundation

/// A quantity, category or other sample: HealthKit's `HKSample` in a portable shape.
///
/// Instants are absolute (`Date`); `utcOffsetSeconds` keeps the offset the timestamp was
/// written with (in an Apple export that is the phone's offset at *export* time, not the
/// local offset of the sample) and the real zone, when HealthKit knew it, is in the
/// `HKTimeZone` metadata entry (``timeZoneIdentifier``).
public struct Sample: Hashable, Sendable, Codable {
    public var type: SampleType
    public var start: Date
    public var end: Date
    public var value: SampleValue
    public var source: Source
    public var device: Device?
    public var creationDate: Date?
    public var metadata: [MetadataEntry]
    /// The offset, in seconds east of UTC, that `start` was written with.
    public var utcOffsetSeconds: Int?
    /// Instantaneous beats of an HRV (SDNN) sample, when the Watch recorded them.
    public var beats: [HeartbeatInstant]?
    /// The UUID its writer gave (HealthKit, a sync client, `POST /v1/samples`); `nil` for a
    /// record read from an export, whose ``uuid`` is derived from its content. Samples read
    /// from a store always carry theirs.
    public var givenUUID: UUID?

    /// Inlinable: called out of line, it built the sample and returned a copy of it (a
    /// retain and a release of every field of every sample an import reads).
    @inlinable public init(
        type: SampleType, start: Date, end: Date, value: SampleValue = .none,
        source: Source, device: Device? = nil, creationDate: Date? = nil,
        metadata: [MetadataEntry] = [], utcOffsetSeconds: Int? = nil, beats: [HeartbeatInstant]? = nil,
        uuid: UUID? = nil
    ) {
        self.type = type
        self.start = start
        self.end = end
        self.value = value
        self.source = source
        self.device = device
        self.creationDate = creationDate
        self.metadata = metadata
        self.utcOffsetSeconds = utcOffsetSeconds
        self.beats = beats
        self.givenUUID = uuid
    }

    /// The sample's identity: the UUID its writer gave, else the one derived from its
    /// content key (``ContentKey/uuid``), the same wherever the record is read.
    public var uuid: UUID { givenUUID ?? contentKey.uuid }

    /// The IANA zone from `HKTimeZone` metadata, when present.
    public var timeZoneIdentifier: String? { metadata.timeZoneIdentifier }

    /// `true` when the sample overlaps the half-open `interval` — the one rule every store
    /// and every daily rule obeys (``HealthQuerying``):
    /// - a sample with a duration overlaps when `start < interval.end && end > interval.start`
    ///   (HealthKit's predicate with no options), so one ending exactly at the interval's
    ///   start, or starting exactly at its end, does not;
    /// - an instantaneous sample (`start == end`) overlaps when
    ///   `interval.start <= start < interval.end`: it lies in exactly one of a run of
    ///   adjacent intervals (days), whatever range the intervals were asked in.
    public func overlaps(_ interval: DateInterval) -> Bool {
        Sample.overlaps(start: start, end: end, interval)
    }

    /// ``overlaps(_:)`` for a sample's bounds.
    @inlinable
    public static func overlaps(start: Date, end: Date, _ interval: DateInterval) -> Bool {
        start < interval.end && (end > interval.start || start >= interval.start)
    }
}

/// The value of a sample.
public enum SampleValue: Hashable, Sendable, Codable {
    /// A number in a HealthKit unit (`unit` as the export spells it).
    case quantity(Double, unit: String)
    /// A category value as the export spells it (`HKCategoryValueSleepAnalysisAsleepCore`),
    /// or a number written as text.
    case category(String)
    /// No value (workouts, correlations, some event types).
    case none

    /// The numeric value of a quantity, or of a category written as a finite number.
    public var number: Double? {
        switch self {
        case .quantity(let value, _): value
        case .category(let text): Double(text).flatMap { $0.isFinite ? $0 : nil }
        case .none: nil
        }
    }

    /// The unit of a quantity.
    public var unit: String? {
        if case .quantity(_, let unit) = self { return unit }
        return nil
    }

    /// The textual value as written in the export.
    public var text: String? {
        switch self {
        case .quantity(let value, _): SampleValue.format(value)
        case .category(let text): text
        case .none: nil
        }
    }

    /// Formats a number the shortest way that reads back to the same `Double`.
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

/// One instantaneous beat of an HRV sample (`InstantaneousBeatsPerMinute`).
public struct HeartbeatInstant: Hashable, Sendable, Codable {
    public var time: Date
    public var beatsPerMinute: Double

    public init(time: Date, beatsPerMinute: Double) {
        self.time = time
        self.beatsPerMinute = beatsPerMinute
    }
}
