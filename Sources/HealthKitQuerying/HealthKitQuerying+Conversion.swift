import Foundation
import HealthCore
import HealthKitCompat

extension HealthKitQuerying {
    /// The HealthKit type of one of ours; `nil` for kinds not read through HealthKit here.
    static func sampleType(_ type: SampleType) -> HKSampleType? {
        switch type.kind {
        case .quantity: HKQuantityType(HKQuantityTypeIdentifier(rawValue: type.identifier))
        case .category: HKCategoryType(HKCategoryTypeIdentifier(rawValue: type.identifier))
        case .correlation: HKCorrelationType(HKCorrelationTypeIdentifier(rawValue: type.identifier))
        case .workout: HKObjectType.workoutType()
        case .other: nil
        }
    }

    /// Units tried, in order, for a quantity type ``unit(for:)`` does not know.
    static let fallbackUnits = [
        "count", "count/min", "kcal", "m", "kg", "s", "%", "mmHg", "mg/dL", "degC", "mL", "dBASPL", "m/s", "W", "IU",
    ].map { HKUnit(from: $0) }

    /// One of our samples from a HealthKit sample.
    static func sample(_ object: HKSample) -> Sample? {
        let type = SampleType(object.sampleType.identifier)
        let value: SampleValue
        switch object {
        case let quantity as HKQuantitySample:
            let known = unit(for: type).map { HKUnit(from: $0) }
            guard let unit = known ?? fallbackUnits.first(where: { quantity.quantity.is(compatibleWith: $0) }),
                quantity.quantity.is(compatibleWith: unit)
            else { return nil }
            value = .quantity(quantity.quantity.doubleValue(for: unit), unit: unit.unitString)
        case let category as HKCategorySample:
            value = .category(
                HealthKitCategoryValues.name(of: category.value, for: type.identifier) ?? String(category.value))
        case let workout as HKWorkout:
            value = .category(
                HealthKitWorkoutActivities.names[workout.workoutActivityType.rawValue] ?? "HKWorkoutActivityTypeOther")
        default:
            value = .none
        }
        let metadata = metadata(object.metadata)
        let device = object.device.map {
            Device(
                name: $0.name, manufacturer: $0.manufacturer, model: $0.model, hardware: $0.hardwareVersion,
                software: $0.softwareVersion, firmware: $0.firmwareVersion, localIdentifier: $0.localIdentifier,
                udiDeviceIdentifier: $0.udiDeviceIdentifier)
        }
        let revision = object.sourceRevision
        return Sample(
            type: type, start: object.startDate, end: object.endDate, value: value,
            source: Source(name: revision.source.name, version: revision.version), device: device, metadata: metadata,
            uuid: object.uuid)
    }

    /// A metadata value as exports write it.
    static func text(_ value: Any) -> String {
        switch value {
        case let text as String: text
        case let date as Date: date.formatted(.iso8601)
        case let quantity as HKQuantity: quantity.description
        default: "\(value)"
        }
    }
}

/// Carries a value HealthKit's API does not mark `Sendable` (types, predicates, sort
/// descriptors) into a handler that runs once, elsewhere.
final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
