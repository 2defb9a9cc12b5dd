/// Conversions of computed or stored floating-point numbers to integers that never trap.
///
/// `Int(x)` traps when `x` is NaN, infinite or outside `Int`'s range; a health value that
/// was stored before the plausible ranges existed, or a sum of many large values, must
/// never take a process down. These conversions round to the nearest integer and clamp to
/// the target's range; NaN gives `nil`.
///
/// ```swift
/// Int(roundingSaturating: 12.6)                       // 13
/// Int(roundingSaturating: 1.7976931348623157e308)    // Int.max
/// Int(roundingSaturating: .nan)                      // nil
/// ```
extension FixedWidthInteger {
    /// `value` rounded to the nearest integer (halves away from zero) and clamped to
    /// `Self.min…Self.max`; `nil` for NaN.
    @inlinable
    public init?<F: BinaryFloatingPoint>(roundingSaturating value: F) {
        guard !value.isNaN else { return nil }
        self.init(truncatingSaturating: value.rounded())
    }

    /// `value` truncated toward zero and clamped to `Self.min…Self.max`; `nil` for NaN.
    @inlinable
    public init?<F: BinaryFloatingPoint>(truncatingSaturating value: F) {
        guard !value.isNaN else { return nil }
        if value >= F(Self.max) {
            self = Self.max
        } else if value <= F(Self.min) {
            self = Self.min
        } else {
            self.init(value)
        }
    }
}
