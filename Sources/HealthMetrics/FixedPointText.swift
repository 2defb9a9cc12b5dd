/// A number with a fixed count of decimals, exactly as C's `printf("%.*f")` writes it, in
/// Swift alone.
///
/// `printf` rounds the number's exact binary value to the nearest decimal, ties to even
/// (`0.125` with two decimals is `0.12`, `2.675` is `2.67` as its double is 2.67499…), and
/// keeps the sign of a negative number that rounds to zero (`-0.001` is `-0.00`). Calling
/// it from Swift goes through `withVaList`, whose arguments are found by dynamic casts:
/// most of the time of a readiness answer's explanations. This does the same rounding with
/// integers: a double is `m × 2^e` exactly, so `m × 10^digits` shifted right by `-e`,
/// rounded half to even, is the decimal.
///
/// ```swift
/// FixedPointText.format(2.675, digits: 2)   // "2.67"
/// FixedPointText.format(-0.001, digits: 2)  // "-0.00"
/// ```
public enum FixedPointText {
    /// The most decimals formatted here (`10^9` times a 53-bit significand fits 128 bits).
    public static let maximumDigits = 9

    /// `value` with `digits` decimals, or `nil` where the caller must ask the C library:
    /// NaN, the infinities, more than ``maximumDigits`` decimals, a magnitude of 2^93 or
    /// more, or an Apple system older than macOS 15 / iOS 18.
    public static func format(_ value: Double, digits: Int) -> String? {
        // `UInt128` is in the standard library of macOS 15 and iOS 18 on; before them the
        // caller asks the C library. (Always there on Linux.)
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
        return exactly(value, digits: digits)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func exactly(_ value: Double, digits: Int) -> String? {
        guard value.isFinite, (0...maximumDigits).contains(digits) else { return nil }
        let bits = value.magnitude.bitPattern
        let biasedExponent = Int(bits >> 52)
        let fraction = bits & ((1 << 52) - 1)
        // value = significand × 2^exponent, exactly (subnormals have no implicit bit).
        let significand = UInt128(biasedExponent == 0 ? fraction : fraction | (1 << 52))
        let exponent = (biasedExponent == 0 ? 1 : biasedExponent) - 1075
        let scaled = significand * power(of: digits)
        let units: UInt128
        if exponent >= 0 {
            guard exponent <= 40 else { return nil }
            units = scaled << exponent
        } else if -exponent >= 127 {
            units = 0  // below half a unit of the last decimal even with 10^9 decimals
        } else {
            let shift = -exponent
            let quotient = scaled >> shift
            let remainder = scaled & ((1 << shift) - 1)
            let half: UInt128 = 1 << (shift - 1)
            units = remainder > half || (remainder == half && quotient & 1 == 1) ? quotient + 1 : quotient
        }
        var text = String(units)
        if text.count <= digits { text = String(repeating: "0", count: digits + 1 - text.count) + text }
        if digits > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -digits)) }
        return value.sign == .minus ? "-" + text : text
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func power(of digits: Int) -> UInt128 {
        var result: UInt128 = 1
        for _ in 0..<digits { result *= 10 }
        return result
    }
}
