import Foundation
import HealthCore

extension ExportXMLHandler {
    /// The bytes after `<<HKDevice: 0x…>` (escaped `&lt;&lt;HKDevice: 0x…&gt;`): a device
    /// without the address that differs from record to record, the key its parsed form is
    /// kept under. `nil` — the device is parsed and not kept — when the text does not start
    /// so (its whole text could equal another's cut one), or when the address holds more than
    /// hexadecimal digits (`&#62;`, a `>`: a hostile file), whose cut here could differ from
    /// the parser's cut of the decoded text. Either way two devices would share a key.
    static func withoutAddress(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let prefixes: [(StaticString, StaticString)] = [("&lt;&lt;HKDevice:", "&gt;"), ("<<HKDevice:", ">")]
        for (prefix, close) in prefixes where bytes.count > prefix.utf8CodeUnitCount {
            guard memcmp(bytes.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0 else { continue }
            let start = prefix.utf8CodeUnitCount
            let closeLength = close.utf8CodeUnitCount
            // The first byte that may start `close` (a comparison at every byte of the address
            // was a tenth of the reading thread's calls), then the rest of it.
            guard let found = memchr(bytes.baseAddress! + start, Int32(close.utf8Start.pointee), bytes.count - start)
            else { return nil }
            let index = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
            guard index + closeLength <= bytes.count, memcmp(found, close.utf8Start, closeLength) == 0,
                bytes[start..<index].allSatisfy(isAddressByte)
            else { return nil }
            return UnsafeRawBufferPointer(rebasing: bytes[(index + closeLength)...])
        }
        return nil
    }

    /// A space, a hexadecimal digit or the `x` of `0x`.
    private static func isAddressByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x30...0x39, 0x41...0x46, 0x61...0x66, 0x78: true
        default: false
        }
    }
}

extension ActivitySummary {
    /// The warning for an `ActivitySummary` whose `dateComponents` is no date: it is left out.
    static let undatedWarning = "ActivitySummary without a valid dateComponents (left out)"
}
