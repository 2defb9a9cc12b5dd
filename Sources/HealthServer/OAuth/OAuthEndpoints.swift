import Crypto
import Foundation
import HealthCore
import HealthServerRecords
import Hummingbird

/// Where this server's authorization server and its one protected resource, the MCP
/// endpoint, are, as a client reaches them: the public URL's origin when there is one
/// (`--public-url`, a proxy in front), else the request's own scheme and `Host`.
struct OAuthEndpoints: Sendable, Equatable {
    /// `scheme://host[:port]`: the issuer (RFC 8414) and the origin of every endpoint.
    let issuer: String

    init(issuer: String) { self.issuer = issuer }

    init(_ request: Request, configuration: ServerConfiguration) {
        if let origin = configuration.publicOrigin {
            issuer = origin
            return
        }
        let scheme = configuration.tls == nil ? "http" : "https"
        let host = (request.head.authority ?? request.headers[HTTPFields.Element.Name("Host")!])?.lowercased() ?? ""
        let plain =
            host.count <= 255
            && host.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-:[]".unicodeScalars.contains($0))
            }
        // No Host: the address the server listens on. A Host that is not a host name or an
        // address with a port names no issuer of ours: nothing made through another matches it.
        let named = host.isEmpty ? "\(configuration.host):\(configuration.port)" : plain ? host : "invalid.invalid"
        issuer = "\(scheme)://" + named
    }

    /// The MCP endpoint: the resource (RFC 8707) every access token is bound to.
    var resource: String { issuer + "/mcp" }
    /// RFC 9728 metadata of ``resource``, named in the `WWW-Authenticate` of a 401 at `/mcp`.
    var resourceMetadata: String { issuer + "/.well-known/oauth-protected-resource/mcp" }

    /// Whether `text`, a client's `resource` parameter, names ``resource`` (a trailing `/` aside).
    func isResource(_ text: String) -> Bool {
        text == resource || text == resource + "/"
    }

    /// RFC 9728: the protected resource's metadata.
    var protectedResourceMetadata: [String: Any] {
        [
            "resource": resource, "authorization_servers": [issuer], "bearer_methods_supported": ["header"],
            "scopes_supported": OAuthScope.supported, "resource_name": "HealthPipeline MCP",
            "resource_documentation": "https://healthpipeline.dev/docs/oauth",
        ]
    }

    /// RFC 8414: the authorization server's metadata.
    var authorizationServerMetadata: [String: Any] {
        [
            "issuer": issuer, "authorization_endpoint": issuer + "/oauth/authorize",
            "token_endpoint": issuer + "/oauth/token", "registration_endpoint": issuer + "/oauth/register",
            "revocation_endpoint": issuer + "/oauth/revoke", "response_types_supported": ["code"],
            "response_modes_supported": ["query"], "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"], "token_endpoint_auth_methods_supported": ["none"],
            "revocation_endpoint_auth_methods_supported": ["none"], "scopes_supported": OAuthScope.supported,
            "authorization_response_iss_parameter_supported": true,
        ]
    }
}

/// PKCE (RFC 7636), S256 only.
enum PKCE {
    /// A verifier or challenge: 43–128 of `A–Z a–z 0–9 - . _ ~`.
    static func isWellFormed(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count)
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-._~".unicodeScalars.contains($0))
            }
    }

    /// `BASE64URL(SHA256(verifier))`, unpadded.
    static func challenge(of verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `verifier` is well formed and hashes to `challenge` (compared in constant time).
    static func verify(_ verifier: String, challenge: String) -> Bool {
        isWellFormed(verifier)
            && Secrets.constantTimeEqual(Array(Self.challenge(of: verifier).utf8), Array(challenge.utf8))
    }
}

/// The scopes a client may ask for: `read` (the person chooses the kinds) or `read:<kind>`
/// (those kinds chosen beforehand on the consent page). Other scopes are ignored, as
/// RFC 6749 §3.3 allows; a `read:` of a kind that does not exist is refused.
enum OAuthScope {
    static var supported: [String] { ["read"] + HealthDataCategory.allCases.map { "read:" + $0.rawValue } }

    /// The kinds `scope` names (`nil`: none named, so every kind is offered checked), or
    /// throws the unknown kind.
    static func kinds(in scope: String?) throws -> Set<HealthDataCategory>? {
        var kinds = Set<HealthDataCategory>()
        for item in (scope ?? "").split(separator: " ") where item.hasPrefix("read:") {
            let name = String(item.dropFirst(5))
            guard let kind = HealthDataCategory(rawValue: name) else { throw UnknownKind(name: name) }
            kinds.insert(kind)
        }
        return kinds.isEmpty ? nil : kinds
    }

    /// The `scope` of a token of a grant that reads `kinds`.
    static func granted(_ kinds: Set<HealthDataCategory>?) -> String {
        (kinds ?? []).map { "read:" + $0.rawValue }.sorted().joined(separator: " ")
    }

    struct UnknownKind: Error {
        let name: String
    }
}

/// Redirect URIs a client may register (RFC 7591 §2, OAuth 2.1 §2.3.1, RFC 8252).
enum RedirectURI {
    /// Why `text` cannot be a redirect URI, or `nil` when it can: an absolute URI without a
    /// fragment, at most 2,000 characters; `https`, `http` only to a loopback address, or an
    /// app's own scheme — never `javascript:`, `data:`, `file:` and their like.
    ///
    /// Only printable ASCII without `\\` is taken: a parser that percent-encodes what it may
    /// not hold (Foundation's) and a browser that reads `\\` as `/` would see different hosts,
    /// so the host the consent page names would not be the one the browser goes to. No user
    /// information (`user@host`) either, nor a port past 65535.
    static func problem(_ text: String) -> String? {
        guard text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "\\" }) else {
            return "holds a space, a control character, a backslash or a character outside ASCII"
        }
        guard text.utf8.count <= 2000, let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased()
        else { return "is not an absolute URI" }
        guard parts.fragment == nil else { return "has a fragment" }
        guard parts.user == nil, parts.password == nil else { return "has user information (user@host)" }
        guard (0...65_535).contains(parts.port ?? 0) else { return "has a port past 65535" }
        guard !["javascript", "data", "file", "vbscript", "about", "blob"].contains(scheme) else {
            return "uses the \(scheme): scheme"
        }
        switch scheme {
        case "https":
            return (parts.host ?? "").isEmpty ? "has no host" : nil
        case "http":
            let host = (parts.host ?? "").lowercased()
            return ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) ? nil : "is http but not to a loopback address"
        default:
            return nil
        }
    }

    /// The `form-action` source of the consent page that lets its form's answer send the
    /// browser on to `uri`: its origin, or its scheme for an app's own scheme.
    static func formActionSource(_ uri: String) -> String? {
        guard let parts = URLComponents(string: uri), let scheme = parts.scheme?.lowercased(),
            scheme.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        guard scheme == "http" || scheme == "https" else { return scheme + ":" }
        guard let host = parts.host?.lowercased(), !host.isEmpty,
            host.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-:[]".unicodeScalars.contains($0))
            })
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)" + (parts.port.map { ":\($0)" } ?? "")
    }
}
