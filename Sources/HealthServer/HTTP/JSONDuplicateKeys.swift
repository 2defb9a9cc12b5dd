import Foundation

/// Finds an object with the same key twice in a JSON text (finding L4 of issue 32), and a
/// string holding the NUL character (issue 37's attack: a 500 on PostgreSQL, with the text
/// in its log).
///
/// JSON leaves duplicate keys to the reader (RFC 8259 §4): Foundation keeps the last, other
/// parsers the first, so a body such as `{"name": "get_sleep", "name": "get_steps"}` could
/// pass a gate that reads one and run as the other. Every JSON body is checked before any
/// parser sees it; a duplicate is a 400 naming the object's JSON Pointer.
///
/// ```swift
/// JSONDuplicateKeys.first(in: Data(#"{"a": 1, "b": {"c": 2, "c": 3}}"#.utf8))  // "/b/c"
/// ```
enum JSONDuplicateKeys {
    /// An open object or array, mutated in place on the stack (no copy per key).
    private struct Container {
        var isObject: Bool
        /// The keys seen, while few; a set once there are many (a hostile object of 100,000
        /// keys must not cost their square).
        var keys: [[UInt8]] = []
        var many: Set<[UInt8]>?
        /// The key whose value is being read, or the array's index.
        var current: [UInt8] = []
        var index = 0
    }

    /// What ``firstProblem(in:)`` finds.
    enum Problem: Equatable {
        /// A key twice in one object.
        case duplicateKey
        /// A string (a key or a value) with the NUL character (`\u0000`), which PostgreSQL
        /// cannot keep in text and SQLite's text functions end strings at: refused on every
        /// store alike, never half-stored.
        case nulCharacter
    }

    /// The JSON Pointer of the first repeated key (`/b/c`), or `nil`. Keys are compared
    /// after unescaping (`"a"` and `"\u0061"` are one key). Malformed JSON is scanned as
    /// far as it goes and left to the parser to refuse.
    static func first(in json: Data) -> String? {
        json.withUnsafeBytes { raw in first(in: raw.bindMemory(to: UInt8.self), refusingNUL: false)?.1 }
    }

    /// The first repeated key or string with a NUL character, and its JSON Pointer (of
    /// the key, or of the value's place: never the value), in one pass.
    static func firstProblem(in json: Data) -> (Problem, String)? {
        json.withUnsafeBytes { raw in first(in: raw.bindMemory(to: UInt8.self), refusingNUL: true) }
    }

    private static func first(in bytes: UnsafeBufferPointer<UInt8>, refusingNUL: Bool) -> (Problem, String)? {
        var stack: [Container] = []
        var index = 0
        let count = bytes.count
        // Whether the string that starts next is a key: after `{` or `,` inside an object.
        var expectingKey = false
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index + 1
                var end = start
                var escaped = false
                var nul = false
                while end < count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\") {
                        escaped = true
                        end += 1
                        // `\u0000` (an escaped backslash before `u0000` was skipped whole above).
                        if refusingNUL, end + 4 < count, bytes[end] == UInt8(ascii: "u"),
                            bytes[(end + 1)...(end + 4)].allSatisfy({ $0 == UInt8(ascii: "0") })
                        {
                            nul = true
                        }
                    }
                    end += 1
                }
                let isKey = expectingKey && stack.last?.isObject == true
                if nul {
                    // The key's place, or the value's: its container's key or index.
                    let raw = Array(bytes[start..<min(end, count)])
                    return (.nulCharacter, isKey ? pointer(stack.dropLast()) + "/" + name(raw) : pointer(stack[...]))
                }
                if isKey, let top = stack.indices.last {
                    var key = Array(bytes[start..<min(end, count)])
                    if escaped { key = unescaped(key) }
                    let seen = stack[top].many?.contains(key) ?? stack[top].keys.contains(key)
                    if seen { return (.duplicateKey, pointer(stack.dropLast()) + "/" + name(key)) }
                    if stack[top].many != nil {
                        stack[top].many!.insert(key)
                    } else if stack[top].keys.count >= 16 {
                        stack[top].many = Set(stack[top].keys + [key])
                        stack[top].keys = []
                    } else {
                        stack[top].keys.append(key)
                    }
                    stack[top].current = key
                    expectingKey = false
                }
                index = end + 1
                continue
            case UInt8(ascii: "{"):
                stack.append(Container(isObject: true))
                expectingKey = true
            case UInt8(ascii: "["):
                stack.append(Container(isObject: false))
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
                expectingKey = false
            case UInt8(ascii: ","):
                if let top = stack.indices.last {
                    if stack[top].isObject { expectingKey = true } else { stack[top].index += 1 }
                }
            default: break
            }
            index += 1
        }
        return nil
    }

    private static func pointer(_ containers: ArraySlice<Container>) -> String {
        containers.map { container in
            container.isObject ? "/" + name(container.current) : "/\(container.index)"
        }.joined()
    }

    /// A key as a JSON Pointer token (RFC 6901: `~` as `~0`, `/` as `~1`).
    private static func name(_ key: [UInt8]) -> String {
        String(decoding: key, as: UTF8.self).replacingOccurrences(of: "~", with: "~0")
            .replacingOccurrences(of: "/", with: "~1")
    }

    /// A key's bytes with JSON escapes resolved (the rare path: keys are plain ASCII).
    private static func unescaped(_ key: [UInt8]) -> [UInt8] {
        let quoted = Data([UInt8(ascii: "\"")] + key + [UInt8(ascii: "\"")])
        guard let text = try? JSONDecoder().decode(String.self, from: quoted) else { return key }
        return Array(text.utf8)
    }
}
