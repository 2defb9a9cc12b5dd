/// Numbers as CSV text: fixed decimals, or the shortest text that reads back as the same
/// `Double` (integral values without `.0`).
enum CSVNumber {
    static func append(_ value: Double, decimals: Int?, to buffer: inout [UInt8]) {
        guard value.isFinite else {
            buffer.append(contentsOf: "nan".utf8)
            return
        }
        if let decimals {
            appendFixed(value, decimals: decimals, to: &buffer)
        } else if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value), to: &buffer)
        } else {
            buffer.append(contentsOf: value.description.utf8)
        }
    }

    static func text(_ value: Double, decimals: Int?) -> String {
        var buffer: [UInt8] = []
        append(value, decimals: decimals, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// `value` rounded half away from zero to `decimals` places, every place written.
    private static func appendFixed(_ value: Double, decimals: Int, to buffer: inout [UInt8]) {
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else {
            buffer.append(contentsOf: value.description.utf8)
            return
        }
        var units = Int64(scaled)
        if value < 0, units != 0 { buffer.append(UInt8(ascii: "-")) }
        let divisor = Int64(scale)
        appendInteger(units / divisor, to: &buffer)
        guard decimals > 0 else { return }
        buffer.append(UInt8(ascii: "."))
        units %= divisor
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: decimals)
        for index in stride(from: decimals - 1, through: 0, by: -1) {
            digits[index] = UInt8(ascii: "0") + UInt8(units % 10)
            units /= 10
        }
        buffer.append(contentsOf: digits)
    }

    static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { digits in
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(digits[index]) }
        }
    }
}
