import Foundation

/// One activity of a workout (`WorkoutActivity`, iOS 16 and later): a leg of a multisport
/// workout (swim, bike, run), or the one activity of a single-sport workout.
///
/// Exports write it inside its `Workout` with a UUID, a start, an optional end and duration,
/// and metadata (events and statistics may follow); they do not write its activity type,
/// which is the workout's. The store keeps the element as read among the workout's kept
/// elements (``Workout/extras``), so it travels unchanged through the store, the sync and
/// back out; this type is the modelled view of it (``Workout/activities``).
public struct WorkoutActivity: Hashable, Sendable {
    /// The element's name in an export.
    public static let elementName = "WorkoutActivity"

    public var uuid: UUID?
    public var start: Date
    public var end: Date?
    public var duration: Double?
    public var durationUnit: String?
    /// The UTC offset the start was written with.
    public var utcOffsetSeconds: Int?
    public var metadata: [MetadataEntry]
    public var events: [WorkoutEvent]
    public var statistics: [WorkoutStatistic]

    public init(
        uuid: UUID? = nil, start: Date, end: Date? = nil, duration: Double? = nil, durationUnit: String? = nil,
        utcOffsetSeconds: Int? = nil, metadata: [MetadataEntry] = [], events: [WorkoutEvent] = [],
        statistics: [WorkoutStatistic] = []
    ) {
        self.uuid = uuid
        self.start = start
        self.end = end
        self.duration = duration
        self.durationUnit = durationUnit
        self.utcOffsetSeconds = utcOffsetSeconds
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
    }

    /// The recorded duration in seconds, else end − start, else `nil` (an activity still open).
    public var durationSeconds: Double? {
        Workout.seconds(duration, unit: durationUnit) ?? end.map { max(0, $0.timeIntervalSince(start)) }
    }

    /// The activity a kept element holds; `nil` for another element or one without a
    /// readable start. Children it does not know are skipped.
    public init?(element: RawElement) {
        guard element.name == Self.elementName, let started = Self.date(element["startDate"]) else { return nil }
        self.init(
            uuid: element["uuid"].flatMap(UUID.init(uuidString:)), start: started.date,
            end: Self.date(element["endDate"])?.date, duration: Self.number(element["duration"]),
            durationUnit: element["durationUnit"], utcOffsetSeconds: started.utcOffsetSeconds)
        for child in element.children {
            switch child.name {
            case "MetadataEntry":
                metadata.append(MetadataEntry(key: child["key"] ?? "", value: child["value"] ?? ""))
            case "WorkoutEvent":
                guard let date = Self.date(child["date"])?.date else { continue }
                events.append(
                    WorkoutEvent(
                        type: child["type"] ?? "", date: date, duration: Self.number(child["duration"]),
                        durationUnit: child["durationUnit"],
                        metadata: child.children.filter { $0.name == "MetadataEntry" }.map {
                            MetadataEntry(key: $0["key"] ?? "", value: $0["value"] ?? "")
                        }))
            case "WorkoutStatistics":
                statistics.append(
                    WorkoutStatistic(
                        type: SampleType(child["type"] ?? ""), start: Self.date(child["startDate"])?.date,
                        end: Self.date(child["endDate"])?.date, average: Self.number(child["average"]),
                        minimum: Self.number(child["minimum"]), maximum: Self.number(child["maximum"]),
                        sum: Self.number(child["sum"]), unit: child["unit"]))
            default:
                continue
            }
        }
    }

    /// The activity as an export writes it (dates at ``utcOffsetSeconds``, else UTC).
    public var element: RawElement {
        let offset = utcOffsetSeconds ?? 0
        func text(_ date: Date) -> String { ExportDate.format(date, utcOffsetSeconds: offset) }
        func number(_ value: Double) -> String { SampleValue.format(value) }
        func entry(_ key: String, _ value: String?) -> MetadataEntry? { value.map { MetadataEntry(key: key, value: $0) } }
        func metadataElements(_ entries: [MetadataEntry]) -> [RawElement] {
            entries.map {
                RawElement(
                    name: "MetadataEntry",
                    attributes: [MetadataEntry(key: "key", value: $0.key), MetadataEntry(key: "value", value: $0.value)])
            }
        }
        let attributes = [
            entry("uuid", uuid?.uuidString), entry("startDate", text(start)), entry("endDate", end.map(text)),
            entry("duration", duration.map(number)), entry("durationUnit", durationUnit),
        ]
        var children = metadataElements(metadata)
        children += events.map { event in
            RawElement(
                name: "WorkoutEvent",
                attributes: [
                    entry("type", event.type), entry("date", text(event.date)), entry("duration", event.duration.map(number)),
                    entry("durationUnit", event.durationUnit),
                ]
                .compactMap { $0 }, children: metadataElements(event.metadata))
        }
        children += statistics.map { figure in
            RawElement(
                name: "WorkoutStatistics",
                attributes: [
                    entry("type", figure.type.identifier), entry("startDate", figure.start.map(text)),
                    entry("endDate", figure.end.map(text)), entry("average", figure.average.map(number)),
                    entry("minimum", figure.minimum.map(number)), entry("maximum", figure.maximum.map(number)),
                    entry("sum", figure.sum.map(number)), entry("unit", figure.unit),
                ]
                .compactMap { $0 })
        }
        return RawElement(name: Self.elementName, attributes: attributes.compactMap { $0 }, children: children)
    }

    private static func date(_ text: String?) -> ExportDate.Parsed? { text.flatMap { ExportDate.parse($0) } }

    private static func number(_ text: String?) -> Double? { text.flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } }
}

extension RawElement {
    /// The value of the attribute `name` (the first, if written twice).
    public subscript(_ name: String) -> String? { attributes.first { $0.key == name }?.value }
}

extension Workout {
    /// The workout's activities, in the order written (none for a workout recorded before
    /// iOS 16, or by an app that wrote none).
    public var activities: [WorkoutActivity] { extras.compactMap(WorkoutActivity.init(element:)) }
}
