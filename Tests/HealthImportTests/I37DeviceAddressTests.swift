import Foundation
import HealthCore
import Testing

@testable import HealthImportReader

/// `withoutAddress` drops `<<HKDevice: 0x…>` from a device attribute, the key its parsed
/// form is kept under; found with `memchr`, and only when the address is hexadecimal.
@Suite struct I37DeviceAddressTests {
    /// The rule, byte by byte: the text starts with the prefix; after it, the first byte that
    /// may start the close must start it, and everything before it be an address.
    static func reference(_ text: String) -> String? {
        for (prefix, close) in [("&lt;&lt;HKDevice:", "&gt;"), ("<<HKDevice:", ">")] where text.utf8.count > prefix.utf8.count {
            let bytes = Array(text.utf8)
            guard bytes.starts(with: Array(prefix.utf8)) else { continue }
            let closing = Array(close.utf8)
            guard let index = bytes[prefix.utf8.count...].firstIndex(of: closing[0]),
                bytes[index...].starts(with: closing),
                bytes[prefix.utf8.count..<index].allSatisfy({ " 0123456789abcdefABCDEFx".utf8.contains($0) })
            else { return nil }
            return String(decoding: bytes[(index + closing.count)...], as: UTF8.self)
        }
        return nil
    }

    static func cut(_ text: String) -> String? {
        Array(text.utf8).withUnsafeBytes { ExportXMLHandler.withoutAddress($0).map { String(decoding: $0, as: UTF8.self) } }
    }

    @Test func cutsAfterAHexadecimalAddressOnly() {
        let device = "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:9.1&gt;"
        var texts = [
            "&lt;&lt;HKDevice: 0x2838a4f40&gt;, " + device, "<<HKDevice: 0x2838a4f40>, name:iPhone>", "&lt;&lt;HKDevice:",
            "&lt;&lt;HKDevice: 0x28&g&gt&amp;&gt;, x", "&lt;&lt;HKDevice: 0x28&gt", "&lt;&lt;HKDevice: 0x28&g", "<<HKDevice:>",
            "<<HKDevice: 0x1", "name:iPhone", "", "&lt;&lt;HKDevice: &&&&gt;", "<<HKDevice: >>>",
            "&lt;&lt;HKDevice: 0x1&#62;, name:Ring&gt;, model:M&gt;", "&lt;&lt;HKDevice: 0x2>, name:Cuff&gt;, x",
        ]
        // Every prefix of the real form, cut anywhere.
        let whole = texts[0]
        for end in whole.utf8.indices { texts.append(String(whole.utf8[..<end])!) }
        for text in texts {
            #expect(Self.cut(text) == Self.reference(text), "\(text)")
        }
        #expect(Self.cut(whole) == ", " + device)
        #expect(Self.cut("&lt;&lt;HKDevice: 0x1&#62;, name:Ring&gt;, model:M&gt;") == nil)
    }

    /// The names of the devices of records with these device attributes, read in order.
    static func deviceNames(_ devices: [String]) throws -> [String?] {
        let records = devices.enumerated().map { minute, device in
            """
            <Record type="HKQuantityTypeIdentifierStepCount" sourceName="P" unit="count" device="\(device)" \
            startDate="2024-01-01 09:0\(minute):00 +0000" endDate="2024-01-01 09:0\(minute):00 +0000" value="\(minute + 1)"/>
            """
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><HealthData locale="en_US">\(records.joined())</HealthData>
            """
        let (_, read) = try XMLScannerTests.records(Data(xml.utf8), chunk: 1 << 20)
        return read.map { record -> String? in
            guard case .sample(let sample) = record else { return nil }
            return sample.device?.name
        }
    }

    /// Found by attacks: two devices shared a key, and a record took the device of the one
    /// read before it — addresses holding an entity, or a text without the prefix equal to
    /// another's text without its address. Each record has its own device, whatever came first.
    @Test(arguments: [
        ["&lt;&lt;HKDevice: 0x1&#62;, name:Ring&gt;, model:M&gt;", "&lt;&lt;HKDevice: 0x1&#62;, name:Watch&gt;, model:M&gt;"],
        ["&lt;&lt;HKDevice: 0x1&gt;, name:Watch&gt;", ", name:Watch&gt;"],
        [", name:Watch&gt;", "&lt;&lt;HKDevice: 0x1&gt;, name:Watch&gt;"],
    ])
    func devicesThatCouldShareAKeyAreNotMixedUp(_ devices: [String]) throws {
        let together = try Self.deviceNames(devices)
        let alone = try devices.map { try Self.deviceNames([$0])[0] }
        #expect(together == alone, "\(devices)")
    }
}
