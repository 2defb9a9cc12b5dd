/// CRC-32 (IEEE 802.3, the polynomial of zip and zlib), eight bytes at a time
/// ("slicing-by-8"). ZIPFoundation checks a zip entry a byte at a time on Linux, which made
/// checking a 150 MB export.xml cost as much as inflating it.
struct CRC32 {
    private(set) var value: UInt32 = 0

    /// Eight tables of 256 entries, one after the other: table `k` advances a byte
    /// followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// Adds `bytes` to the checksum.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = ~value
        CRC32.tables.withUnsafeBufferPointer { table in
            @inline(__always) func entry(_ slice: Int, _ byte: UInt32) -> UInt32 { table[slice << 8 | Int(byte & 0xFF)] }
            var index = 0
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let low = UInt32(truncatingIfNeeded: word) ^ crc
                let high = UInt32(truncatingIfNeeded: word >> 32)
                crc =
                    entry(7, low) ^ entry(6, low >> 8) ^ entry(5, low >> 16) ^ entry(4, low >> 24)
                    ^ entry(3, high) ^ entry(2, high >> 8) ^ entry(1, high >> 16) ^ entry(0, high >> 24)
                index += 8
            }
            while index < bytes.count {
                crc = (crc >> 8) ^ entry(0, crc ^ UInt32(bytes[index]))
                index += 1
            }
        }
        value = ~crc
    }
}
