import Foundation
import Testing

@testable import HealthImportReader

/// `withoutAddress` drops `<<HKDevice: 0x…>` from a device attribute, looking for the
/// closing `>` (or `&gt;`) with `memchr`: it must cut where a comparison at every byte cuts.
@Suite struct I37DeviceAddressTests {
    /// The old search: `close` compared at every byte after `prefix`.
    static func reference(_ text: String) -> String {
        for (prefix, close) in [("&lt;&lt;HKDevice:", "&gt;"), ("<<HKDevice:", ">")] where text.utf8.count > prefix.utf8.count {
            let bytes = Array(text.utf8)
            guard bytes.starts(with: Array(prefix.utf8)) else { continue }
            let closing = Array(close.utf8)
            var index = prefix.utf8.count
            while index + closing.count <= bytes.count {
                if Array(bytes[index..<index + closing.count]) == closing {
                    return String(decoding: bytes[(index + closing.count)...], as: UTF8.self)
                }
                index += 1
            }
        }
        return text
    }

    static func cut(_ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { String(decoding: ExportXMLHandler.withoutAddress($0), as: UTF8.self) }
    }

    @Test func cutsWhereAComparisonAtEveryByteCuts() {
        let device = "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:9.1&gt;"
        var texts = [
            "&lt;&lt;HKDevice: 0x2838a4f40&gt;, " + device, "<<HKDevice: 0x2838a4f40>, name:iPhone>", "&lt;&lt;HKDevice:",
            "&lt;&lt;HKDevice: 0x28&g&gt&amp;&gt;, x", "&lt;&lt;HKDevice: 0x28&gt", "&lt;&lt;HKDevice: 0x28&g", "<<HKDevice:>",
            "<<HKDevice: 0x1", "name:iPhone", "", "&lt;&lt;HKDevice: &&&&gt;", "<<HKDevice: >>>",
        ]
        // Every prefix of the real form, cut anywhere.
        let whole = texts[0]
        for end in whole.utf8.indices { texts.append(String(whole.utf8[..<end])!) }
        for text in texts {
            #expect(Self.cut(text) == Self.reference(text), "\(text)")
        }
        #expect(Self.cut(whole) == ", " + device)
    }
}
