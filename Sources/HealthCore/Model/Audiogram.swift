/// An audiogram: a sample with hearing sensitivity points.
public struct Audiogram: Hashable, Sendable, Codable {
    public var sample: Sample
    public var points: [SensitivityPoint]

    public init(sample: Sample, points: [SensitivityPoint]) {
        self.sample = sample
        self.points = points
    }
}

/// One `SensitivityPoint`. Every attribute is kept as written, in order, so that masked
/// and clamping-bound attributes of newer exports survive.
public struct SensitivityPoint: Hashable, Sendable, Codable {
    public var frequency: Double?
    public var frequencyUnit: String?
    public var leftEar: Double?
    public var rightEar: Double?
    public var unit: String?
    public var attributes: [MetadataEntry]

    public init(
        frequency: Double? = nil, frequencyUnit: String? = nil, leftEar: Double? = nil, rightEar: Double? = nil,
        unit: String? = nil, attributes: [MetadataEntry] = []
    ) {
        self.frequency = frequency
        self.frequencyUnit = frequencyUnit
        self.leftEar = leftEar
        self.rightEar = rightEar
        self.unit = unit
        self.attributes = attributes
    }
}
