import Crypto
import Foundation

/// Bearer tokens: `hp_<id>_<secret>` (an OAuth access token `hpa_…`, a refresh token
/// `hpr_…`: ``Kind``). The id (12 hex digits) finds the row; only the SHA-256 of the secret
/// is stored, and it is compared in constant time, so neither the database nor the timing
/// of a comparison gives a token away.
public struct BearerToken: Sendable, Hashable {
    /// What a token is, told by its prefix.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A person's own token or a scoped one they made (`hp_`).
        case api = "hp"
        /// An OAuth access token (`hpa_`): short-lived, for the MCP endpoint only.
        case access = "hpa"
        /// An OAuth refresh token (`hpr_`): used once, at the token endpoint only.
        case refresh = "hpr"

        /// How the stores name the kind: `api`, `access`, `refresh`.
        public var stored: String { "\(self)" }
    }

    public let kind: Kind
    public let id: String
    let secret: String

    /// A new random token of `kind` (96 bits of id, 256 bits of secret).
    public static func generate(_ kind: Kind = .api) -> BearerToken {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<6).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        return BearerToken(kind: kind, id: id, secret: Secrets.randomBase64URL(bytes: 32))
    }

    /// Parses the text after `Bearer `; `nil` when it is not one of ours.
    public init?(_ text: String) {
        let parts = text.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let kind = Kind(rawValue: String(parts[0])), parts[1].count == 12,
            parts[1].allSatisfy(\.isHexDigit), parts[2].count == 43
        else { return nil }
        self.kind = kind
        id = String(parts[1])
        secret = String(parts[2])
    }

    /// Parses `text` as a token of `kind` only.
    public init?(_ text: String, kind: Kind) {
        guard let token = BearerToken(text), token.kind == kind else { return nil }
        self = token
    }

    private init(kind: Kind, id: String, secret: String) {
        self.kind = kind
        self.id = id
        self.secret = secret
    }

    /// The text to hand to the person, once.
    public var text: String { "\(kind.rawValue)_\(id)_\(secret)" }

    /// SHA-256 of the secret: what the store keeps.
    public var secretHash: Data { Data(SHA256.hash(data: Data(secret.utf8))) }

    /// Constant-time comparison of this token's hash with a stored one.
    public func matches(_ storedHash: Data) -> Bool {
        Secrets.constantTimeEqual(secretHash, storedHash)
    }
}
