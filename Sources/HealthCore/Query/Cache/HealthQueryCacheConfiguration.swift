import Foundation

/// How long ``CachingHealthQuerying`` keeps an answer and how often it may ask the store
/// about one kind of data (seed 003 §5, `docs/cache.md`).
public struct HealthQueryCacheConfiguration: Hashable, Sendable, Codable {
    /// Seconds an answer is served from the cache without asking the store.
    public var cacheDuration: TimeInterval
    /// Seconds after a fetch of a type before the store is asked about that type again:
    /// within it, an expired answer is served as it is (a question with no answer kept is
    /// ``HealthQueryCacheError/rateLimited(type:retryAfter:)``). A commit of the type ends it.
    /// 0: no throttling.
    public var throttleInterval: TimeInterval

    public init(cacheDuration: TimeInterval, throttleInterval: TimeInterval) {
        self.cacheDuration = cacheDuration
        self.throttleInterval = throttleInterval
    }

    /// Live monitoring: 30 s, throttled to one fetch a type per 10 s.
    public static let realtime = HealthQueryCacheConfiguration(cacheDuration: 30, throttleInterval: 10)
    /// Normal use: 5 minutes, one fetch a type a minute.
    public static let standard = HealthQueryCacheConfiguration(cacheDuration: 300, throttleInterval: 60)
    /// Saving battery: 15 minutes, one fetch a type per 3 minutes.
    public static let aggressive = HealthQueryCacheConfiguration(cacheDuration: 900, throttleInterval: 180)

    /// The configuration for the device's battery: ``aggressive`` in Low Power Mode or
    /// below 20 %, ``standard`` otherwise (and when the level is unknown, as
    /// `UIDevice.batteryLevel`'s −1). ``realtime`` is for a screen that shows live values,
    /// chosen by the app, never by the battery.
    public static func recommendedConfiguration(batteryLevel: Float, isLowPowerMode: Bool) -> HealthQueryCacheConfiguration {
        if isLowPowerMode || (0..<0.2).contains(batteryLevel) { return .aggressive }
        return .standard
    }
}

/// Why the cache gave no answer.
public enum HealthQueryCacheError: Error, Equatable, CustomStringConvertible {
    /// `type` was fetched less than the throttle interval ago and this question has no
    /// answer kept: ask again after `retryAfter` seconds.
    case rateLimited(type: SampleType, retryAfter: TimeInterval)

    public var description: String {
        switch self {
        case .rateLimited(let type, let wait):
            "\(type.identifier) was read from the store less than the throttle interval ago; retry in \(Int(wait.rounded(.up))) s"
        }
    }
}

/// What the cache did, since it was made (or its statistics were reset).
public struct HealthQueryCacheStatistics: Hashable, Sendable, Codable {
    /// Answers served from the cache while fresh.
    public var hits = 0
    /// Questions the store answered.
    public var misses = 0
    /// Expired answers served because their type was throttled (and unchanged).
    public var throttledHits = 0
    /// Questions refused as ``HealthQueryCacheError/rateLimited(type:retryAfter:)``.
    public var rateLimited = 0
    /// Answers dropped because a commit changed their type.
    public var invalidated = 0

    public init() {}

    /// Hits (fresh and throttled) over every question answered; 0 before the first.
    public var hitRate: Double {
        let answered = hits + throttledHits + misses
        return answered == 0 ? 0 : Double(hits + throttledHits) / Double(answered)
    }
}
