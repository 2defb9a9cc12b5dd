import Foundation
import HealthCore

/// Buffered byte output of export XML, with the export's timestamp form written directly
/// as digits (generation of multi-GB files spends its time here).
final class XMLOutput {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// Every timestamp is written with this offset: the phone's offset at export time.
    let exportOffset: Int
    private(set) var bytesWritten: Int64 = 0

    init(url: URL, exportOffset: Int) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        self.exportOffset = exportOffset
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    /// Writes `name="value"` with XML escaping.
    func attribute(_ name: String, _ value: String) {
        buffer.append(32)
        buffer.append(contentsOf: name.utf8)
        buffer.append(contentsOf: "=\"".utf8)
        for byte in value.utf8 {
            switch byte {
            case 38: buffer.append(contentsOf: "&amp;".utf8)
            case 60: buffer.append(contentsOf: "&lt;".utf8)
            case 62: buffer.append(contentsOf: "&gt;".utf8)
            case 34: buffer.append(contentsOf: "&quot;".utf8)
            default: buffer.append(byte)
            }
        }
        buffer.append(34)
    }

    /// Writes `name="2024-01-05 08:00:00 -0800"` at the export offset.
    func dateAttribute(_ name: String, _ date: Date) {
        buffer.append(32)
        buffer.append(contentsOf: name.utf8)
        buffer.append(contentsOf: "=\"".utf8)
        let local = Int((date.timeIntervalSince1970).rounded(.down)) + exportOffset
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let second = local - days * 86400
        let (year, month, day) = CivilDays.date(days)
        digits(year, 4); buffer.append(45); digits(month, 2); buffer.append(45); digits(day, 2)
        buffer.append(32)
        digits(second / 3600, 2); buffer.append(58); digits(second / 60 % 60, 2); buffer.append(58); digits(second % 60, 2)
        buffer.append(32)
        buffer.append(exportOffset < 0 ? 45 : 43)
        digits(abs(exportOffset) / 3600, 2); digits(abs(exportOffset) / 60 % 60, 2)
        buffer.append(34)
    }

    private func digits(_ value: Int, _ width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            buffer.append(UInt8(48 + rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        bytesWritten += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        flush()
        try handle.close()
    }
}
