import Foundation
import HealthCore

/// A workout's heart rate from the readings of its span: the readings themselves, their
/// time-weighted mean (``TimeWeightedMean``), the lowest and highest, and the time in each
/// of five zones of a maximum heart rate.
///
/// Each reading holds from its start (the workout's start, for one that began before) until
/// the next reading starts — the workout's end for the last — and at most
/// ``TimeWeightedMean/maximumGap`` (10 minutes): the time in a zone is the time its readings
/// hold, so the zones add up to the time the mean weighs. Zones are the usual fifths of the
/// maximum heart rate: zone 1 from 50 % to 60 %, zone 2 to 70 %, zone 3 to 80 %, zone 4 to
/// 90 %, zone 5 from 90 % up (a reading above the maximum counts in zone 5); below 50 % is
/// `belowZones`. A reading on a boundary belongs to the zone it starts.
///
/// ```swift
/// // 100 bpm for 60 s then 150 bpm for 120 s, maximum 190: 100/190 = 52.6 % (zone 1),
/// // 150/190 = 78.9 % (zone 3); mean (100 × 60 + 150 × 120) / 180 = 133.3
/// WorkoutHeartRate(readings: [(t0, 100), (t0 + 60, 150)], span: DateInterval(start: t0, duration: 180), maximum: 190)
/// ```
public struct WorkoutHeartRate: Sendable, Equatable {
    public struct Reading: Sendable, Equatable, Codable {
        public var time: Date
        public var bpm: Double

        public init(time: Date, bpm: Double) {
            self.time = time
            self.bpm = bpm
        }
    }

    /// Seconds in each zone, 1 to 5, with the bounds in bpm.
    public struct Zone: Sendable, Equatable, Codable {
        public var zone: Int
        public var fromBpm: Double
        /// `nil` for zone 5 (no upper bound).
        public var toBpm: Double?
        public var seconds: Double

        enum CodingKeys: String, CodingKey {
            case zone, seconds
            case fromBpm = "from_bpm"
            case toBpm = "to_bpm"
        }
    }

    /// The readings of the span, by time.
    public var readings: [Reading]
    public var meanBpm: Double?
    public var minimumBpm: Double?
    public var maximumBpm: Double?
    /// The maximum heart rate the zones are fifths of; `nil`: none given. (Without readings
    /// there are no zones, a maximum or not.)
    public var maximumHeartRate: Double?
    /// Zones 1–5, when a maximum heart rate was given.
    public var zones: [Zone]?
    /// Seconds below zone 1 (under 50 % of the maximum).
    public var belowZones: Double?

    /// The fractions of the maximum heart rate where zones 1–5 start.
    public static let zoneStarts = [0.5, 0.6, 0.7, 0.8, 0.9]

    public init(readings raw: [(start: Date, bpm: Double)], span: DateInterval, maximum: Double?) {
        let sorted = raw.filter { $0.bpm.isFinite && $0.bpm > 0 }
            .map { (start: Swift.max($0.start, span.start), bpm: $0.bpm) }
            .sorted { ($0.start, $0.bpm) < ($1.start, $1.bpm) }
        readings = sorted.map { Reading(time: $0.start, bpm: $0.bpm) }
        meanBpm = TimeWeightedMean.mean(sorted.map { (start: $0.start, value: $0.bpm) }, until: span.end)
        minimumBpm = sorted.map(\.bpm).min()
        maximumBpm = sorted.map(\.bpm).max()
        guard let maximum, maximum.isFinite, maximum > 0 else {
            maximumHeartRate = nil
            zones = nil
            belowZones = nil
            return
        }
        maximumHeartRate = maximum
        // No zones without readings: five zones of 0 s would read as measured.
        guard !sorted.isEmpty else {
            zones = nil
            belowZones = nil
            return
        }
        var seconds = Array(repeating: 0.0, count: 6)  // below, 1…5
        var index = 0
        while index < sorted.count {
            // Readings that start together share their time, as in the mean.
            let start = sorted[index].start
            var next = index
            while next < sorted.count, sorted[next].start == start { next += 1 }
            let until = next < sorted.count ? sorted[next].start : span.end
            let held = Swift.min(Swift.max(until.timeIntervalSince(start), 0), TimeWeightedMean.maximumGap)
            for reading in sorted[index..<next] {
                let fraction = reading.bpm / maximum
                let zone = Self.zoneStarts.lastIndex { fraction >= $0 }.map { $0 + 1 } ?? 0
                seconds[zone] += held / Double(next - index)
            }
            index = next
        }
        belowZones = seconds[0]
        // 180 × 0.7 is 125.99999999999999 in binary: boundaries to a millionth of a beat.
        func bound(_ fraction: Double) -> Double { (maximum * fraction * 1e6).rounded() / 1e6 }
        zones = (1...5).map { zone in
            Zone(
                zone: zone, fromBpm: bound(Self.zoneStarts[zone - 1]),
                toBpm: zone < 5 ? bound(Self.zoneStarts[zone]) : nil, seconds: seconds[zone])
        }
    }

    /// The heart rate of `workout` from the heart-rate samples of `store` in its span, in
    /// bpm (samples in a unit that does not convert to count/min are left out).
    public static func of(
        _ workout: Workout, in store: any HealthQuerying, maximum: Double?
    ) async throws -> WorkoutHeartRate {
        let span = DateInterval(start: workout.start, end: Swift.max(workout.start, workout.end))
        let bpm = try HealthUnit(parsing: "count/min")
        let readings = try await store.samples(of: .heartRate, overlapping: span).compactMap {
            sample -> (start: Date, bpm: Double)? in
            guard case .quantity(let raw, let symbol) = sample.value,
                let value = try? HealthUnit(parsing: symbol).convert(raw, to: bpm)
            else { return nil }
            return (start: sample.start, bpm: value)
        }
        return WorkoutHeartRate(readings: readings, span: span, maximum: maximum)
    }
}
