#if !canImport(HealthKit)
    import Foundation

    /// Metadata keys HealthKit defines that exports carry.
    public let HKMetadataKeyTimeZone = "HKTimeZone"
    public let HKMetadataKeyWasUserEntered = "HKWasUserEntered"
    public let HKMetadataKeyHeartRateMotionContext = "HKMetadataKeyHeartRateMotionContext"
    public let HKMetadataKeyExternalUUID = "HKExternalUUID"
    public let HKMetadataKeySyncIdentifier = "HKMetadataKeySyncIdentifier"
    public let HKMetadataKeySyncVersion = "HKMetadataKeySyncVersion"
    public let HKMetadataKeyIndoorWorkout = "HKIndoorWorkout"

    /// The sort keys of sample queries.
    public let HKSampleSortIdentifierStartDate = "startDate"
    public let HKSampleSortIdentifierEndDate = "endDate"

    /// Anything HealthKit stores: identified by its UUID.
    public class HKObject: NSObject, @unchecked Sendable {
        public let uuid: UUID
        /// Metadata as HealthKit gives it. Exports store every value as text, so values read
        /// from a store are `String`s; a key written twice keeps its first value.
        public let metadata: [String: Any]?
        public let sourceRevision: HKSourceRevision
        public let device: HKDevice?

        init(uuid: UUID, metadata: [String: Any]?, sourceRevision: HKSourceRevision, device: HKDevice?) {
            self.uuid = uuid
            self.metadata = metadata
            self.sourceRevision = sourceRevision
            self.device = device
            super.init()
        }

        @available(*, deprecated, message: "use sourceRevision.source")
        public var source: HKSource { sourceRevision.source }

        public override func isEqual(_ object: Any?) -> Bool { (object as? HKObject)?.uuid == uuid }

        public override var hash: Int { uuid.hashValue }
    }

    /// A sample: an object with a type and a time span.
    public class HKSample: HKObject, @unchecked Sendable {
        public let sampleType: HKSampleType
        public let startDate: Date
        public let endDate: Date

        init(
            type: HKSampleType, start: Date, end: Date, uuid: UUID, metadata: [String: Any]?,
            sourceRevision: HKSourceRevision, device: HKDevice?
        ) {
            self.sampleType = type
            self.startDate = start
            self.endDate = end
            super.init(uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
        }

        /// `false`: every stored sample has an end.
        public var hasUndeterminedDuration: Bool { false }

        public override var description: String {
            "\(Swift.type(of: self)) \(uuid.uuidString) \(sampleType.identifier) \(startDate) – \(endDate)"
        }
    }

    /// A number with a unit over a time span.
    public final class HKQuantitySample: HKSample, @unchecked Sendable {
        public let quantity: HKQuantity

        public init(
            type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date,
            device: HKDevice? = nil, metadata: [String: Any]? = nil
        ) {
            self.quantity = quantity
            super.init(
                type: quantityType, start: startDate, end: endDate, uuid: UUID(), metadata: metadata,
                sourceRevision: HKSourceRevision(source: .default(), version: nil), device: device)
        }

        init(
            type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, uuid: UUID, metadata: [String: Any]?,
            sourceRevision: HKSourceRevision, device: HKDevice?
        ) {
            self.quantity = quantity
            super.init(
                type: type, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision,
                device: device)
        }

        public var quantityType: HKQuantityType { sampleType as! HKQuantityType }

        /// The number of quantities the sample stands for (1: series are not stored here).
        public var count: Int { 1 }
    }

    /// A category value (an `Int` of the type's value enum) over a time span.
    public final class HKCategorySample: HKSample, @unchecked Sendable {
        public let value: Int

        public init(
            type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date, device: HKDevice? = nil,
            metadata: [String: Any]? = nil
        ) {
            self.value = value
            super.init(
                type: type, start: startDate, end: endDate, uuid: UUID(), metadata: metadata,
                sourceRevision: HKSourceRevision(source: .default(), version: nil), device: device)
        }

        init(
            type: HKCategoryType, value: Int, start: Date, end: Date, uuid: UUID, metadata: [String: Any]?,
            sourceRevision: HKSourceRevision, device: HKDevice?
        ) {
            self.value = value
            super.init(
                type: type, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision,
                device: device)
        }

        public var categoryType: HKCategoryType { sampleType as! HKCategoryType }
    }

    /// Samples recorded together (a blood pressure's systolic and diastolic values, a meal's
    /// nutrients).
    public final class HKCorrelation: HKSample, @unchecked Sendable {
        public let objects: Set<HKSample>

        init(
            type: HKCorrelationType, start: Date, end: Date, objects: Set<HKSample>, uuid: UUID,
            metadata: [String: Any]?, sourceRevision: HKSourceRevision, device: HKDevice?
        ) {
            self.objects = objects
            super.init(
                type: type, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision,
                device: device)
        }

        public var correlationType: HKCorrelationType { sampleType as! HKCorrelationType }

        /// The member samples of `objectType`.
        public func objects(for objectType: HKObjectType) -> Set<HKSample> {
            objects.filter { $0.sampleType == objectType }
        }
    }

    /// A deleted sample, as an anchored query reports it.
    public final class HKDeletedObject: NSObject, @unchecked Sendable {
        public let uuid: UUID
        public let metadata: [String: Any]?

        init(uuid: UUID) {
            self.uuid = uuid
            self.metadata = nil
            super.init()
        }

        public override func isEqual(_ object: Any?) -> Bool { (object as? HKDeletedObject)?.uuid == uuid }

        public override var hash: Int { uuid.hashValue }
    }

    /// A position in the store's history, for anchored queries.
    public final class HKQueryAnchor: NSObject, @unchecked Sendable {
        let value: Int64

        /// An anchor from a stored number (HealthKit has this initialiser too).
        public init(fromValue value: Int) {
            self.value = Int64(value)
            super.init()
        }

        public override func isEqual(_ object: Any?) -> Bool { (object as? HKQueryAnchor)?.value == value }

        public override var hash: Int { value.hashValue }

        public override var description: String { "HKQueryAnchor(\(value))" }

        /// The integer the anchor stands for (only here: HealthKit's anchors are opaque; see
        /// HealthKitQuerying for the way back on Apple platforms).
        public var integerValue: Int { Int(value) }
    }
#endif
