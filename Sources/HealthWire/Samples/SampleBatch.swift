/// The body of `POST /v1/samples`.
public struct SampleBatch: Codable, Sendable {
    public var samples: [SampleWire]

    public init(samples: [SampleWire]) { self.samples = samples }
}
