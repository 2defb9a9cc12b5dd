import Foundation

/// The scanner's byte helpers that need none of its state.
extension XMLScanner {
    static func countNewlines(_ start: UnsafeMutableRawPointer, _ length: Int) -> Int {
        var lines = 0
        var cursor = start
        let end = start + length
        while cursor < end, let found = memchr(cursor, 10, end - cursor) {
            lines += 1
            cursor = UnsafeMutableRawPointer(found) + 1
        }
        return lines
    }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 10 || byte == 13 || byte == 9
    }
}
