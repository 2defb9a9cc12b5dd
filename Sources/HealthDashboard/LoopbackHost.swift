/// The `Host` names a loopback-only server answers (finding M4 of issue 32): a page on
/// another site that rebinds its own DNS name to 127.0.0.1 sends its own name as `Host`,
/// so answering only loopback names keeps it from reading a person's dashboard.
///
/// ```swift
/// LoopbackHost.allows("127.0.0.1:8087")         // true
/// LoopbackHost.allows("attacker.example:8087")  // false: answer 421
/// ```
public enum LoopbackHost {
    /// An ASCII digit (`Character.isNumber` also holds for `½` and `٣`).
    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }

    /// `true` when `authority` (the `Host` header or the request's authority) names this
    /// machine's loopback interface: `localhost`, `127.x.y.z` or `[::1]`, any port.
    public static func allows(_ authority: String?) -> Bool {
        guard var host = authority?.lowercased(), !host.isEmpty else { return false }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(isDigit)) else { return false }
            return host[host.index(after: host.startIndex)..<close] == "::1"
        }
        if let colon = host.firstIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy(isDigit) else { return false }
            host = String(host[..<colon])
        }
        if host == "localhost" || host == "localhost." { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(isDigit) && (Int(part) ?? 256) <= 255
            }
    }
}
