import Foundation

extension ContentKeyBuilder {
    /// Milliseconds since 1970, saturating: an absurd instant (a duration of 1e300 hours
    /// added to a start) keys as `Int64.max`/`.min` instead of trapping; NaN keys as no date.
    mutating func add(_ date: Date?) {
        add(date.flatMap { Int64(roundingSaturating: $0.timeIntervalSince1970 * 1000) })
    }

    /// Numbers go in by their exact bit pattern (no formatting on the hot path).
    mutating func add(_ number: Double?) {
        add(number.map { Int64(bitPattern: ($0 == 0 ? 0 : $0).bitPattern) })
    }

    mutating func add(_ source: Source?) {
        add(source?.name)
        add(source?.version)
    }

    /// A device's fields go in as encoded once, when the device was made (an export's
    /// samples share a handful of devices).
    mutating func add(_ device: Device?) {
        guard let device else {
            add(nil as String?)
            return
        }
        append(encoded: device.contentKeyEncoding)
    }

    /// Metadata values that are export timestamps go in as instants: the same record written
    /// by exports made at different offsets keeps its key.
    mutating func add(_ metadata: [MetadataEntry]) {
        add(Int64(metadata.count))
        for entry in metadata {
            add(entry.key)
            if entry.value.count >= 19, let parsed = ExportDate.parse(entry.value) {
                add(parsed.date)
            } else {
                add(entry.value)
            }
        }
    }
}

extension Sample {
    /// The content key: type, instants, value, unit, source, device (without its address),
    /// creation date and metadata.
    public var contentKey: ContentKey {
        var builder = ContentKeyBuilder(tag: "sample")
        return contentKey(typeTag: ContentKey.typeTag(type.identifier), builder: &builder)
    }

    /// ``contentKey`` for a batch of samples: built in `builder` (emptied first, its storage
    /// kept from one sample to the next) with the tag of the sample's type given
    /// (``ContentKey/typeTag(_:)``, the same for a run of one type).
    package func contentKey(typeTag: UInt64, builder: inout ContentKeyBuilder) -> ContentKey {
        builder.reset(tag: "sample")
        builder.add(type.identifier)
        builder.add(start)
        builder.add(end)
        switch value {
        case .quantity(let number, let unit):
            builder.add(number)
            builder.add(unit)
        case .category(let text):
            builder.add(text)
        case .none:
            builder.add(nil as String?)
        }
        builder.add(source)
        builder.add(device)
        builder.add(creationDate)
        builder.add(metadata)
        return ContentKey.ordered(hash: builder.finish(), typeTag: typeTag, start: start)
    }
}

extension ContentKey {
    /// A sample key that sorts like the export: 16 bits naming the type and 48 bits of start
    /// second lead, then 64 bits of the content hash. Exports list records by type and
    /// time, so the store's unique index on keys grows at its end instead of at random
    /// places — the difference between 67 and 49 MB/s between a 150 MB and a 1.5 GB
    /// import. Two different samples collide only if they share type, start second and a
    /// 64-bit hash.
    static func ordered(hash: ContentKey, typeTag: UInt64, start: Date) -> ContentKey {
        let second = UInt64(bitPattern: Int64(start.timeIntervalSince1970.rounded(.down)) &+ (1 << 47)) & 0xFFFF_FFFF_FFFF
        return ContentKey(high: typeTag << 48 | second, low: hash.high ^ hash.low)
    }

    /// The 16 bits that name a sample type at the head of its samples' keys.
    package static func typeTag(_ identifier: String) -> UInt64 {
        var typeBuilder = ContentKeyBuilder(tag: "type")
        typeBuilder.add(identifier)
        return typeBuilder.finish().high >> 48
    }
}

extension HealthRecord {
    /// The content key of the record, whatever its family.
    public var contentKey: ContentKey {
        switch self {
        case .sample(let sample): sample.contentKey
        case .correlation(let correlation): correlation.contentKey
        case .workout(let workout): workout.contentKey
        case .activitySummary(let summary): ContentKeyBuilder(tag: "summary", summary.dateComponents).finish()
        case .clinicalRecord(let record): record.contentKey
        case .audiogram(let audiogram): audiogram.contentKey
        case .electrocardiogram(let ecg): ecg.contentKey
        case .other(let element): element.contentKey
        }
    }
}

extension Correlation {
    /// The content key of the correlation itself (its children have their own).
    public var contentKey: ContentKey {
        var builder = ContentKeyBuilder(tag: "correlation")
        builder.add(header.contentKey)
        return builder.finish()
    }
}

extension Workout {
    /// The content key: the workout's own attributes and metadata.
    public var contentKey: ContentKey {
        var builder = ContentKeyBuilder(tag: "workout")
        builder.add(header.contentKey)
        builder.add(duration)
        builder.add(durationUnit)
        builder.add(totalDistance)
        builder.add(totalDistanceUnit)
        builder.add(totalEnergyBurned)
        builder.add(totalEnergyBurnedUnit)
        return builder.finish()
    }
}

extension ClinicalRecord {
    public var contentKey: ContentKey {
        var builder = ContentKeyBuilder(tag: "clinical")
        builder.add(type)
        builder.add(identifier)
        builder.add(sourceName)
        builder.add(sourceURL)
        builder.add(receivedDate)
        return builder.finish()
    }
}

extension Audiogram {
    public var contentKey: ContentKey {
        var builder = ContentKeyBuilder(tag: "audiogram")
        builder.add(sample.contentKey)
        for point in points { builder.add(point.attributes) }
        return builder.finish()
    }
}

extension Electrocardiogram {
    public var contentKey: ContentKey {
        var builder = ContentKeyBuilder(tag: "ecg")
        builder.add(recordedDate)
        builder.add(header)
        builder.add(Int64(voltages.count))
        for value in voltages { builder.add(value) }
        return builder.finish()
    }
}

extension RawElement {
    public var contentKey: ContentKey {
        var builder = ContentKeyBuilder(tag: "raw")
        addContent(to: &builder)
        return builder.finish()
    }

    private func addContent(to builder: inout ContentKeyBuilder) {
        builder.add(name)
        builder.add(attributes)
        builder.add(Int64(children.count))
        for child in children { child.addContent(to: &builder) }
    }
}
