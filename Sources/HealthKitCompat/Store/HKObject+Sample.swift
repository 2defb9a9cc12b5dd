#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// Our stored samples as HealthKit's objects, and back.
    enum SampleBridge {
        /// The HealthKit object of a stored sample; `nil` for a sample HealthKit would not have
        /// (a kind not provided here, a unit or activity it cannot name).
        static func object(_ sample: Sample, members: [Sample] = []) -> HKSample? {
            let revision = HKSourceRevision(
                source: HKSource(name: sample.source.name), version: sample.source.version)
            let device = sample.device.map(device)
            let meta = metadata(sample.metadata)
            switch sample.type.kind {
            case .quantity:
                guard case .quantity(let value, let symbol) = sample.value, let unit = HKUnit.stored(symbol) else {
                    return nil
                }
                return HKQuantitySample(
                    type: HKQuantityType(identifier: sample.type.identifier),
                    quantity: HKQuantity(unit: unit, doubleValue: value),
                    start: sample.start, end: sample.end, uuid: sample.uuid, metadata: meta, sourceRevision: revision,
                    device: device)
            case .category:
                guard let text = sample.value.text,
                    let value = HealthKitCategoryValues.values[text] ?? Int(text)
                else { return nil }
                return HKCategorySample(
                    type: HKCategoryType(identifier: sample.type.identifier), value: value, start: sample.start,
                    end: sample.end, uuid: sample.uuid, metadata: meta, sourceRevision: revision, device: device)
            case .workout:
                guard let name = sample.value.text, let activity = HKWorkoutActivityType(exportName: name) else { return nil }
                return HKWorkout(
                    activityType: activity, start: sample.start, end: sample.end, uuid: sample.uuid, metadata: meta,
                    sourceRevision: revision, device: device)
            case .correlation:
                return HKCorrelation(
                    type: HKCorrelationType(identifier: sample.type.identifier), start: sample.start, end: sample.end,
                    objects: Set(members.compactMap { object($0) }), uuid: sample.uuid, metadata: meta,
                    sourceRevision: revision, device: device)
            case .other:
                return nil
            }
        }

        /// Metadata as HealthKit gives it: `nil` for none, a key written twice keeps its first value.
        static func metadata(_ entries: [MetadataEntry]) -> [String: Any]? {
            var metadata: [String: Any] = [:]
            for entry in entries where metadata[entry.key] == nil { metadata[entry.key] = entry.value }
            return metadata.isEmpty ? nil : metadata
        }

        /// The HealthKit device of a stored one; a store has a handful, each made once and
        /// shared by its samples (an `HKDevice` is immutable).
        static func device(_ device: Device) -> HKDevice {
            if let known = devices.withLock({ $0[device] }) { return known }
            let made = HKDevice(
                name: device.name, manufacturer: device.manufacturer, model: device.model,
                hardwareVersion: device.hardware, firmwareVersion: device.firmware, softwareVersion: device.software,
                localIdentifier: device.localIdentifier, udiDeviceIdentifier: device.udiDeviceIdentifier)
            devices.withLock { devices in
                if devices.count < 1024 { devices[device] = made }
            }
            return made
        }

        private static let devices = Locked<[Device: HKDevice]>([:])

        /// The stored form of an object an app saves.
        static func sample(_ object: HKSample) -> Sample {
            let value: SampleValue
            switch object {
            case let quantity as HKQuantitySample:
                value = .quantity(quantity.quantity.value, unit: quantity.quantity.unit.unitString)
            case let category as HKCategorySample:
                value = .category(
                    HealthKitCategoryValues.name(of: category.value, for: category.sampleType.identifier)
                        ?? String(category.value))
            case let workout as HKWorkout:
                value = .category(workout.workoutActivityType.exportName)
            default:
                value = .none
            }
            let metadata = (object.metadata ?? [:]).sorted { $0.key < $1.key }.map { key, value in
                MetadataEntry(key: key, value: text(value))
            }
            let device = object.device.map {
                Device(
                    name: $0.name, manufacturer: $0.manufacturer, model: $0.model, hardware: $0.hardwareVersion,
                    software: $0.softwareVersion, firmware: $0.firmwareVersion, localIdentifier: $0.localIdentifier,
                    udiDeviceIdentifier: $0.udiDeviceIdentifier)
            }
            return Sample(
                type: SampleType(object.sampleType.identifier), start: object.startDate, end: object.endDate, value: value,
                source: Source(name: object.sourceRevision.source.name, version: object.sourceRevision.version),
                device: device, metadata: metadata, uuid: object.uuid)
        }

        /// A metadata value as exports write it.
        static func text(_ value: Any) -> String {
            switch value {
            case let date as Date: date.formatted(.iso8601)
            case let quantity as HKQuantity: quantity.description
            default: "\(value)"
            }
        }
    }
#endif
