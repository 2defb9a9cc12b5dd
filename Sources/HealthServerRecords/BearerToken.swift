import Crypto
import Foundation

/// Bearer tokens: `hp_<id>_<secret>`. The id (12 hex digits) finds the row; only the
/// SHA-256 of the secret is stored, and it is compared in constant time, so neither the
/// database nor the timing of a comparison gives a token away.
public struct BearerToken: Sendable, Hashable {
    public let id: String
    let secret: String

    /// A new random token (96 bits of id, 256 bits of secret).
    public static func generate() -> BearerToken {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<6).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        return BearerToken(id: id, secret: Secrets.randomBase64URL(bytes: 32))
    }

    /// Parses the text after `Bearer `; `nil` when it is not one of ours.
    public init?(_ text: String) {
        let parts = text.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "hp", parts[1].count == 12, parts[1].allSatisfy(\.isHexDigit),
            parts[2].count == 43
        else { return nil }
        id = String(parts[1])
        secret = String(parts[2])
    }

    private init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    /// The text to hand to the person, once.
    public var text: String { "hp_\(id)_\(secret)" }

    /// SHA-256 of the secret: what the store keeps.
    public var secretHash: Data { Data(SHA256.hash(data: Data(secret.utf8))) }

    /// Constant-time comparison of this token's hash with a stored one.
    public func matches(_ storedHash: Data) -> Bool {
        Secrets.constantTimeEqual(secretHash, storedHash)
    }
}
