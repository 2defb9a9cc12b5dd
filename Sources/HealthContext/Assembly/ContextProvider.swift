import Foundation
import HealthCore
import HealthDaily

/// One source of snapshot fields: health data, the daily log, the weather, the app.
/// ``ContextAssembler`` asks every provider at once, each under its own deadline.
public protocol ContextProvider: Sendable {
    /// A short name for reasons and logs (`vitals`, `weather`, …).
    var name: String { get }
    /// The fields this provider fills; it must not set others.
    var fields: [ContextField] { get }
    /// The provider's fields for `request`. A field left `nil` should get a reason.
    func provide(for request: ContextRequest) async throws -> ContextContribution
}

/// What the assembler asks a provider for: the state as of ``instant`` on ``day``.
public struct ContextRequest: Sendable {
    /// The "as of" instant; nothing later may be used.
    public var instant: Date
    /// The local day containing ``instant`` ("today").
    public var day: LocalDay

    public init(instant: Date, day: LocalDay) {
        self.instant = instant
        self.day = day
    }

    /// Today from the start of the day up to ``instant``.
    public var todaySoFar: DateInterval {
        DateInterval(start: day.interval.start, end: max(day.interval.start, min(instant, day.interval.end)))
    }
}

/// A provider's answer: values for its fields and, for those it left empty, why.
public struct ContextContribution: Sendable {
    public var values = ContextValues()
    public var reasons: [ContextField: String] = [:]

    public init() {}

    /// Sets `field`'s reason when `value` is `nil`; returns `value`.
    public mutating func note<Value>(
        _ value: Value?, _ field: ContextField, otherwise reason: @autoclosure () -> String
    )
        -> Value?
    {
        if value == nil { reasons[field] = reason() }
        return value
    }
}
