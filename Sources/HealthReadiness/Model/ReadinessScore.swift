/// How ready a person is on one local day, and why: the score, its band, how sure we are,
/// and every contributor with its value, baseline and normal band.
///
/// ```swift
/// let engine = ReadinessEngine()
/// let today = try engine.score(on: "2024-06-01", history: metrics)
/// print(today.score ?? 0, today.band?.rawValue ?? "—", today.reason)
/// ```
public struct ReadinessScore: Hashable, Sendable, Codable {
    /// The local day scored, `YYYY-MM-DD`.
    public var date: String
    /// 0–100, the weighted mean of the contributors that have data; `nil` when none has.
    public var score: Int?
    public var band: ReadinessBand?
    /// Fewer than ``ReadinessConfiguration/calibrationDays`` valid days so far: the score is
    /// shown, but the baselines are still forming.
    public var calibrating: Bool
    /// Days of the last 60 (through `date`) with a plausible HRV, resting HR or sleep value.
    public var validDays: Int
    /// 0–1: the share of contributor weight that had data, times the baseline maturity
    /// (`min(1, validDays / 28)`).
    public var confidence: Double
    /// One line naming the contributor that moved the score most.
    public var reason: String
    /// Every contributor, in a fixed order, with or without data.
    public var contributors: [ReadinessContributor]

    public init(
        date: String, score: Int?, band: ReadinessBand?, calibrating: Bool, validDays: Int, confidence: Double,
        reason: String, contributors: [ReadinessContributor]
    ) {
        self.date = date
        self.score = score
        self.band = band
        self.calibrating = calibrating
        self.validDays = validDays
        self.confidence = confidence
        self.reason = reason
        self.contributors = contributors
    }

    /// The contributor of one kind.
    public subscript(kind: ReadinessContributor.Kind) -> ReadinessContributor? {
        contributors.first { $0.kind == kind }
    }

    enum CodingKeys: String, CodingKey {
        case date, score, band, calibrating
        case validDays = "valid_days"
        case confidence, reason, contributors
    }

    /// Every key is written, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(score, forKey: .score)
        try container.encode(band, forKey: .band)
        try container.encode(calibrating, forKey: .calibrating)
        try container.encode(validDays, forKey: .validDays)
        try container.encode(confidence, forKey: .confidence)
        try container.encode(reason, forKey: .reason)
        try container.encode(contributors, forKey: .contributors)
    }
}

/// The band a score falls in.
public enum ReadinessBand: String, Hashable, Sendable, Codable, CaseIterable {
    /// 85–100.
    case optimal
    /// 70–84.
    case good
    /// 60–69.
    case fair
    /// Below 60.
    case payAttention = "pay_attention"

    /// The band of a 0–100 score.
    public init(score: Int) {
        switch score {
        case 85...: self = .optimal
        case 70..<85: self = .good
        case 60..<70: self = .fair
        default: self = .payAttention
        }
    }

    /// Words for people: "optimal", "good", "fair", "pay attention".
    public var label: String { self == .payAttention ? "pay attention" : rawValue }
}
