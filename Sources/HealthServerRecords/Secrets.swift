import Foundation

/// Random secrets and their comparison, for tokens, sessions and CSRF tokens.
package enum Secrets {
    /// `count` random bytes from the system's generator, as base64url without padding.
    package static func randomBase64URL(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// `bytes` as base64url (RFC 4648 §5) without padding, written directly (an `ETag` is
    /// one on every JSON answer: Foundation's base64 and three replacements were 2 % of a read).
    package static func base64URL(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var bits = 0
        var count = 0
        for byte in bytes {
            bits = bits << 8 | Int(byte)
            count += 8
            while count >= 6 {
                count -= 6
                text.append(base64URLAlphabet[(bits >> count) & 63])
            }
        }
        if count > 0 { text.append(base64URLAlphabet[(bits << (6 - count)) & 63]) }
        return String(decoding: text, as: UTF8.self)
    }

    private static let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Equal bytes, compared in time that depends only on the length (empty never matches).
    package static func constantTimeEqual(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Bool {
        guard left.count == right.count, !left.isEmpty else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(left, right) { difference |= x ^ y }
        return difference == 0
    }
}
