import Foundation
import HealthMetrics
import Testing

/// Issue 37 §3: readiness explanations format their numbers in Swift (`FixedPointText`)
/// instead of through `withVaList` and `vsnprintf` — the same text to the byte, shown here
/// against the C library on hand-picked edges and on 300,000 seeded random numbers.
@Suite struct I37FixedPointTextTests {
    static func printf(_ value: Double, _ digits: Int) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            let count = withVaList([Int32(digits), value]) { vsnprintf(buffer.baseAddress!, 512, "%.*f", $0) }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(count)), as: UTF8.self)
        }
    }

    /// xorshift64*: the same numbers on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    @Test func i37_edgesAreWrittenAsPrintfWritesThem() {
        // Before macOS 15 / iOS 18 the formatter leaves every number to the C library.
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let edges: [Double] = [
            0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 2.675, 1.005, 0.045, 99.995, -0.001, -0.004, -0.005, 1e-300,
            -1e-300, .leastNonzeroMagnitude, .leastNormalMagnitude, 123_456.789, 9_007_199_254_740_993, 1e15, 1e20,
            4.35, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 59.5, 60.5, 72.45, 72.55,
        ]
        for value in edges {
            for digits in 0...FixedPointText.maximumDigits {
                #expect(FixedPointText.format(value, digits: digits) == Self.printf(value, digits), "\(value) \(digits)")
            }
        }
        #expect(FixedPointText.format(.nan, digits: 1) == nil)
        #expect(FixedPointText.format(-.infinity, digits: 1) == nil)
        #expect(FixedPointText.format(1e30, digits: 1) == nil)
        #expect(FixedPointText.format(1, digits: 10) == nil)
    }

    @Test func i37_randomNumbersAreWrittenAsPrintfWritesThem() {
        // Before macOS 15 / iOS 18 the formatter leaves every number to the C library.
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        var random = Seeded(state: 2026_11_27)
        var mismatches: [String] = []
        for round in 0..<300_000 {
            let digits = Int.random(in: 0...FixedPointText.maximumDigits, using: &random)
            let value: Double
            switch round % 4 {
            case 0: value = Double.random(in: -200...200, using: &random)
            // Ties and near-ties: a few decimals more than asked.
            case 1: value = Double(Int.random(in: -100_000...100_000, using: &random)) / 2_000
            case 2: value = Double(bitPattern: random.next())
            default: value = Double.random(in: -1...1, using: &random) * pow(10, Double.random(in: -12...27, using: &random))
            }
            guard let text = FixedPointText.format(value, digits: digits) else {
                if value.isFinite && value.magnitude < 1e27 { mismatches.append("\(value) \(digits): nil") }
                continue
            }
            if text != Self.printf(value, digits) { mismatches.append("\(value) \(digits): \(text)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
