import Foundation

/// Random secrets and their comparison, for tokens, sessions and CSRF tokens.
package enum Secrets {
    /// `count` random bytes from the system's generator, as base64url without padding.
    package static func randomBase64URL(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Equal bytes, compared in time that depends only on the length (empty never matches).
    package static func constantTimeEqual(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Bool {
        guard left.count == right.count, !left.isEmpty else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(left, right) { difference |= x ^ y }
        return difference == 0
    }
}
