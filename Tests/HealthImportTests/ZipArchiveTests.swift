import Foundation
import HealthCore
import Testing

@testable import HealthImportReader

/// Our zip reader on archives written by hand, byte by byte: the zip64 layout real exports
/// over 4 GB use, and the lies a hostile zip tells.
@Suite struct ZipArchiveTests {
    /// Little-endian bytes.
    struct Writer {
        var bytes: [UInt8] = []
        mutating func u16(_ value: Int) { for shift in [0, 8] { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
        mutating func u32(_ value: UInt64) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        /// The fields local and central headers share, from "version needed" to the name's
        /// length: stored, UTF-8 name, both sizes 0xFFFFFFFF (they are in the zip64 field).
        mutating func sharedFields(crc: UInt32, nameLength: Int) {
            for value in [45, 0x0800, 0, 0, 0] { u16(value) }
            u32(UInt64(crc))
            u32(0xFFFF_FFFF)
            u32(0xFFFF_FFFF)
            u16(nameLength)
        }

        /// The name, then the zip64 extra field: both sizes, and the local header's offset
        /// when given (central directory).
        mutating func nameAndZip64Field(_ name: [UInt8], size: Int, offset: UInt64?) {
            bytes += name
            u16(1)
            u16(offset == nil ? 16 : 24)
            u64(UInt64(size))
            u64(UInt64(size))
            if let offset { u64(offset) }
        }

        mutating func u64(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
    }

    static let export = Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-01 09:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" \
        startDate="2024-02-29 07:00:00 +0100" endDate="2024-02-29 07:10:00 +0100" value="412"/>
        </HealthData>

        """.utf8)

    /// One stored entry, its sizes and offset only in zip64 extra fields, and a zip64 end
    /// record with its locator: what an archiver writes past 4 GB.
    static func zip64(name: String, content: Data, crc: UInt32? = nil) -> Data {
        var checksum = CRC32()
        content.withUnsafeBytes { checksum.update($0) }
        let crc = crc ?? checksum.value
        let nameBytes = Array(name.utf8)
        var zip = Writer()
        // Local header: sizes 0xFFFFFFFF, the real ones in its zip64 extra field.
        zip.u32(0x0403_4B50)
        zip.sharedFields(crc: crc, nameLength: nameBytes.count)
        zip.u16(20)
        zip.nameAndZip64Field(nameBytes, size: content.count, offset: nil)
        zip.bytes += content
        // Central directory: sizes and the local header's offset in the zip64 extra field.
        let directoryOffset = zip.bytes.count
        zip.u32(0x0201_4B50)
        zip.u16(0x031E)
        zip.sharedFields(crc: crc, nameLength: nameBytes.count)
        zip.u16(28)
        zip.u16(0)
        zip.u16(0)
        zip.u16(0)
        zip.u32(0o100644 << 16)
        zip.u32(0xFFFF_FFFF)
        zip.nameAndZip64Field(nameBytes, size: content.count, offset: 0)
        let directorySize = zip.bytes.count - directoryOffset
        // Zip64 end record, its locator, then the classic end record full of 0xFFFF.
        let recordOffset = zip.bytes.count
        zip.u32(0x0606_4B50)
        zip.u64(44)
        zip.u16(45)
        zip.u16(45)
        zip.u32(0)
        zip.u32(0)
        zip.u64(1)
        zip.u64(1)
        zip.u64(UInt64(directorySize))
        zip.u64(UInt64(directoryOffset))
        zip.u32(0x0706_4B50)
        zip.u32(0)
        zip.u64(UInt64(recordOffset))
        zip.u32(1)
        zip.u32(0x0605_4B50)
        zip.u16(0)
        zip.u16(0)
        zip.u16(0xFFFF)
        zip.u16(0xFFFF)
        zip.u32(0xFFFF_FFFF)
        zip.u32(0xFFFF_FFFF)
        zip.u16(0)
        return Data(zip.bytes)
    }

    @Test func aZip64ArchiveIsRead() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("export.zip")
        try Self.zip64(name: "apple_health_export/export.xml", content: Self.export).write(to: url)
        let archive = try ZipArchive(path: url.path)
        #expect(archive.entries.count == 1)
        #expect(archive.entries.first?.path == "apple_health_export/export.xml")
        #expect(archive.entries.first?.uncompressedSize == UInt64(Self.export.count))
        var records: [HealthRecord] = []
        let reading = try AppleExportReader(path: url.path).read { batch, _ in records += batch }
        #expect(reading.recordsRead == 1)
        guard case .sample(let sample) = records.first else {
            Issue.record("the step record should be read")
            return
        }
        #expect(sample.value == .quantity(412, unit: "count"))
    }

    @Test func aWrongChecksumIsDamage() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("export.zip")
        try Self.zip64(name: "apple_health_export/export.xml", content: Self.export, crc: 1).write(to: url)
        #expect {
            _ = try AppleExportReader(path: url.path).read { _, _ in }
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.code == .damagedEntry && error.message.contains("CRC-32")
        }
    }

    /// Every cut of a valid archive fails with an ImportError, at once.
    @Test func everyTruncationFails() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = Self.zip64(name: "apple_health_export/export.xml", content: Self.export)
        let url = folder.appendingPathComponent("cut.zip")
        for length in stride(from: 1, to: whole.count, by: 7) {
            try whole.prefix(length).write(to: url)
            #expect(throws: ImportError.self, "cut at \(length)") {
                _ = try AppleExportReader(path: url.path).read { _, _ in }
            }
        }
    }
}
