import Foundation

/// The server a device enrols with and syncs to. The token and the device's key travel to
/// it, so plain `http://` is refused except to this machine (loopback: `localhost`,
/// 127.0.0.0/8, `::1`), where nothing crosses a network; anywhere else it must be `https://`.
public enum SyncServerURL {
    /// `text` as the sync server's URL: `https://` to any host, `http://` only to loopback.
    /// Throws ``Refused`` (its description names `https://`) otherwise.
    @discardableResult
    public static func validate(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let url = components.url
        else {
            throw Refused(text: text, reason: "it is not an absolute URL")
        }
        guard let host = components.host, !host.isEmpty else { throw Refused(text: text, reason: "it names no host") }
        switch scheme {
        case "https": return url
        case "http":
            guard isLoopback(host: host) else {
                throw Refused(
                    text: text,
                    reason: "plain http:// would send the token and the device's key readable over the network; "
                        + "use https:// (http:// is only for this machine: localhost, 127.0.0.1, ::1)")
            }
            return url
        default:
            throw Refused(text: text, reason: "its scheme is '\(scheme)'; use https://")
        }
    }

    /// True for `localhost`, an IPv4 address in 127.0.0.0/8, and `::1` (also IPv4-mapped
    /// `::ffff:127.x.y.z`), with or without the brackets of a URL.
    public static func isLoopback(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "localhost." { return true }
        if let bytes = ipv4(host) { return bytes[0] == 127 }
        guard let groups = ipv6(host) else { return false }
        if groups[0..<7].allSatisfy({ $0 == 0 }) && groups[7] == 1 { return true }
        // ::ffff:127.0.0.1, an IPv4 loopback address written as IPv6.
        return groups[0..<5].allSatisfy({ $0 == 0 }) && groups[5] == 0xffff && groups[6] >> 8 == 127
    }

    /// The four bytes of a dotted-quad IPv4 address (`127.0.0.1`; no shorthand), or `nil`.
    static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = UInt8(part)
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// The eight 16-bit groups of an IPv6 address (`::1`, `0:0:0:0:0:0:0:1`,
    /// `::ffff:127.0.0.1`), or `nil` (a zone, `%…`, is not an address here).
    static func ipv6(_ text: String) -> [UInt16]? {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        /// The groups of one side of `::`; a dotted quad only at the very end.
        func groups(_ side: String, last: Bool) -> [UInt16]? {
            if side.isEmpty { return [] }
            let fields = side.split(separator: ":", omittingEmptySubsequences: false)
            var result: [UInt16] = []
            for (index, field) in fields.enumerated() {
                if last, index == fields.count - 1, field.contains(".") {
                    guard let bytes = ipv4(String(field)) else { return nil }
                    result.append(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
                    result.append(UInt16(bytes[2]) << 8 | UInt16(bytes[3]))
                    continue
                }
                guard (1...4).contains(field.count), field.allSatisfy({ $0.isHexDigit }),
                    let value = UInt16(field, radix: 16)
                else { return nil }
                result.append(value)
            }
            return result
        }
        if halves.count == 1 {
            guard let all = groups(halves[0], last: true), all.count == 8 else { return nil }
            return all
        }
        guard let head = groups(halves[0], last: false), let tail = groups(halves[1], last: true),
            head.count + tail.count <= 7
        else { return nil }
        return head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    /// A server URL the sync client will not send a token to.
    public struct Refused: Error, CustomStringConvertible, Equatable {
        public let text: String
        public let reason: String
        public var description: String {
            "the server URL must be https://host[:port] (such as https://health.example.org); '\(text)' is refused: \(reason)"
        }
    }
}
