import CZlib
import Foundation

/// A zip archive read with `pread(2)`: its central directory (zip64 included) and each
/// entry streamed through zlib, bounded by the sizes the directory declares.
///
/// Our own reader, not ZIPFoundation's: FuzzZip found that ZIPFoundation 0.9.20 inflates
/// until the deflate stream ends, never minding the entry's compressed size, and at the
/// end of the file asks for more input forever: a stored block that claims more bytes
/// than the file holds hangs an import (and a server's import job) for good. Here an entry
/// reads exactly its compressed bytes, must end its deflate stream within them and inflate
/// to exactly its declared size, and its CRC-32 must match.
final class ZipArchive {
    /// One entry of the central directory.
    struct Entry {
        var path: String
        /// A plain file: not a directory, not a symbolic link.
        var isFile: Bool
        /// 0 stored, 8 deflated.
        var method: UInt16
        var isEncrypted: Bool
        var crc32: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
    }

    /// Why a zip cannot be read; the source turns it into an ``ImportError``.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// An entry, or the archive, that inflates past ``maxInflatedBytes``: a zip bomb.
    struct Bomb: Error, CustomStringConvertible {
        /// The cap passed.
        let cap: UInt64
        /// How many times its compressed size: the entry's, or the archive's when the entry
        /// alone stays under the cap (only the entries read before it take it over).
        let ratio: UInt64
        let wholeArchive: Bool

        var description: String {
            wholeArchive
                ? "the zip archive inflates past \(cap) bytes with this entry (\(ratio)× its compressed size); refused as a zip bomb"
                : "the zip entry inflates past \(cap) bytes (\(ratio)× its compressed size); refused as a zip bomb"
        }
    }

    let entries: [Entry]
    let fileSize: UInt64
    private let descriptor: Int32
    /// Most bytes the entries may inflate to, all reads together (an entry read twice
    /// counts twice); `nil`: no cap. Past it a read throws ``Bomb``: before inflating an
    /// entry whose declared size would pass it, or as soon as the bytes inflated do.
    var maxInflatedBytes: UInt64?
    /// Bytes inflated (or read stored) so far, every read of every entry counted.
    private(set) var inflatedBytes: UInt64 = 0

    /// Opens `path` and reads its central directory.
    init(path: String) throws {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure("cannot be opened: \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw Failure("cannot be read: \(String(cString: strerror(errno)))")
        }
        fileSize = UInt64(status.st_size)
        do {
            entries = try ZipArchive.readDirectory(descriptor, fileSize: fileSize)
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    // MARK: reading bytes

    /// Exactly `count` bytes at `offset`, or a failure naming what was cut.
    private static func read(_ descriptor: Int32, at offset: UInt64, count: Int, what: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw Failure("\(what) is cut short (the file ends at byte \(offset + UInt64(done)))") }
            done += got
        }
        return bytes
    }

    // MARK: the central directory

    private static let endSignature: UInt32 = 0x0605_4B50
    private static let zip64EndSignature: UInt32 = 0x0606_4B50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let directorySignature: UInt32 = 0x0201_4B50
    private static let localSignature: UInt32 = 0x0403_4B50

    private static func readDirectory(_ descriptor: Int32, fileSize: UInt64) throws -> [Entry] {
        // The end record: 22 bytes and a comment of up to 65,535, at the very end.
        let tailSize = Int(min(fileSize, 22 + 65_535))
        guard tailSize >= 22 else { throw Failure("is too short to be a zip archive (\(fileSize) bytes)") }
        let tail = try read(descriptor, at: fileSize - UInt64(tailSize), count: tailSize, what: "the end of the archive")
        var endAt: Int?
        var index = tailSize - 22
        while index >= 0 {
            if Bytes(tail, index).u32(0) == endSignature, index + 22 + Int(Bytes(tail, index).u16(20)) <= tailSize {
                endAt = index
                break
            }
            index -= 1
        }
        guard let endAt else { throw Failure("has no end of central directory record: not a zip archive, or cut short") }
        let end = Bytes(tail, endAt)
        var count = UInt64(end.u16(10))
        var directorySize = UInt64(end.u32(12))
        var directoryOffset = UInt64(end.u32(16))
        // Zip64: the locator sits just before the end record and points at the zip64 record.
        let endOffset = fileSize - UInt64(tailSize) + UInt64(endAt)
        if endOffset >= 20,
            case let locator = try read(descriptor, at: endOffset - 20, count: 20, what: "the zip64 locator"),
            Bytes(locator, 0).u32(0) == zip64LocatorSignature
        {
            let recordOffset = Bytes(locator, 0).u64(8)
            guard recordOffset <= endOffset, endOffset - recordOffset >= 56 else {
                throw Failure("has a zip64 locator pointing outside the archive")
            }
            let record = try read(descriptor, at: recordOffset, count: 56, what: "the zip64 end record")
            guard Bytes(record, 0).u32(0) == zip64EndSignature else { throw Failure("has a damaged zip64 end record") }
            count = Bytes(record, 0).u64(32)
            directorySize = Bytes(record, 0).u64(40)
            directoryOffset = Bytes(record, 0).u64(48)
        }
        guard directoryOffset <= endOffset, directorySize <= endOffset - directoryOffset else {
            throw Failure("has a central directory that lies outside the archive")
        }
        // At least 46 bytes an entry: a count the directory cannot hold is a lie.
        guard count <= directorySize / 46 else { throw Failure("claims more entries than its central directory holds") }
        let directory = try read(descriptor, at: directoryOffset, count: Int(directorySize), what: "the central directory")
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        var offset = 0
        for number in 0..<Int(count) {
            guard offset + 46 <= directory.count, Bytes(directory, offset).u32(0) == directorySignature else {
                throw Failure("has a damaged central directory (entry \(number + 1))")
            }
            let header = Bytes(directory, offset)
            let nameLength = Int(header.u16(28))
            let extraLength = Int(header.u16(30))
            let commentLength = Int(header.u16(32))
            let nameStart = offset + 46
            let extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= directory.count else { throw Failure("has a damaged central directory (entry \(number + 1))") }
            let nameBytes = directory[nameStart..<extraStart]
            let path = String(validating: nameBytes, as: UTF8.self) ?? String(nameBytes.map { Character(Unicode.Scalar($0)) })
            var entry = Entry(
                path: path, isFile: true, method: header.u16(10), isEncrypted: header.u16(8) & 1 == 1,
                crc32: header.u32(16), compressedSize: UInt64(header.u32(20)), uncompressedSize: UInt64(header.u32(24)),
                localHeaderOffset: UInt64(header.u32(42)))
            // Zip64 extra field: the 64-bit values of the fields set to 0xFFFFFFFF, in order.
            var extra = extraStart
            while extra + 4 <= extraStart + extraLength {
                let id = Bytes(directory, extra).u16(0)
                let size = Int(Bytes(directory, extra).u16(2))
                let data = extra + 4
                guard data + size <= extraStart + extraLength else { break }
                if id == 1 {
                    var field = data
                    func next64() -> UInt64? {
                        guard field + 8 <= data + size else { return nil }
                        defer { field += 8 }
                        return Bytes(directory, field).u64(0)
                    }
                    if header.u32(24) == .max, let value = next64() { entry.uncompressedSize = value }
                    if header.u32(20) == .max, let value = next64() { entry.compressedSize = value }
                    if header.u32(42) == .max, let value = next64() { entry.localHeaderOffset = value }
                }
                extra = data + size
            }
            let unixMode = header.u16(4) >> 8 == 3 ? header.u32(38) >> 16 : 0
            entry.isFile = !path.hasSuffix("/") && unixMode & 0o170000 != 0o040000 && unixMode & 0o170000 != 0o120000
            entries.append(entry)
            offset = next
        }
        return entries
    }

    // MARK: an entry's content

    /// Streams `entry`'s content in chunks of at most `bufferSize` bytes and checks its
    /// size and (unless `checksCRC` is false: a peek at its head) its CRC-32. `consume` may
    /// throw to stop.
    func extract(_ entry: Entry, bufferSize: Int, checksCRC: Bool = true, _ consume: (Data) throws -> Void) throws {
        guard !entry.isEncrypted else { throw Failure("is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw Failure("uses compression method \(entry.method) (only stored and deflated are read)")
        }
        // Checked before any arithmetic: a zip64 offset near 2^64 would overflow, or trap in `off_t`.
        guard entry.localHeaderOffset <= fileSize, fileSize - entry.localHeaderOffset >= 30 else {
            throw Failure("has a local header outside the archive")
        }
        let local = try ZipArchive.read(descriptor, at: entry.localHeaderOffset, count: 30, what: "the entry's local header")
        guard Bytes(local, 0).u32(0) == ZipArchive.localSignature else { throw Failure("has a damaged local header") }
        let dataOffset = entry.localHeaderOffset + 30 + UInt64(Bytes(local, 0).u16(26)) + UInt64(Bytes(local, 0).u16(28))
        guard dataOffset <= fileSize, entry.compressedSize <= fileSize - dataOffset else {
            throw Failure("is cut short: its data runs past the end of the archive")
        }
        // A full read (not a peek at the head) inflates the whole declared size, or fails:
        // refused before inflating a byte when that would pass the cap.
        if checksCRC, let cap = maxInflatedBytes, entry.uncompressedSize > cap - min(cap, inflatedBytes) {
            throw bomb(entry, before: inflatedBytes, cap: cap)
        }
        var checksum = CRC32()
        var produced: UInt64 = 0
        let emit = { (chunk: Data) throws in
            produced += UInt64(chunk.count)
            guard produced <= entry.uncompressedSize else { throw Failure("holds more than its declared size") }
            // Counted where the bytes come out of zlib, before anyone sees them.
            self.inflatedBytes += UInt64(chunk.count)
            if let cap = self.maxInflatedBytes, self.inflatedBytes > cap {
                throw self.bomb(entry, before: self.inflatedBytes - produced, cap: cap)
            }
            chunk.withUnsafeBytes { checksum.update($0) }
            try consume(chunk)
        }
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else { throw Failure("is stored with two different sizes") }
            try readCompressed(from: dataOffset, count: entry.compressedSize, bufferSize: bufferSize, emit)
        } else {
            try inflate(from: dataOffset, count: entry.compressedSize, bufferSize: bufferSize, emit)
        }
        guard produced == entry.uncompressedSize else {
            throw Failure("is cut short: \(produced) of its \(entry.uncompressedSize) bytes")
        }
        guard !checksCRC || checksum.value == entry.crc32 else {
            throw Failure("is damaged: its CRC-32 does not match the archive's")
        }
    }

    /// The ``Bomb`` of `entry` (its declared size: it inflates to that or fails as damaged),
    /// read after `before` bytes inflated from the archive: the entry's own ratio when it
    /// passes `cap` alone, else the archive's (all it inflates to, over the file's size).
    private func bomb(_ entry: Entry, before: UInt64, cap: UInt64) -> Bomb {
        let entryBytes = entry.uncompressedSize
        if entryBytes > cap {
            return Bomb(cap: cap, ratio: entryBytes / max(1, entry.compressedSize), wholeArchive: false)
        }
        let total = min(before, UInt64.max - entryBytes) + entryBytes
        return Bomb(cap: cap, ratio: total / max(1, fileSize), wholeArchive: true)
    }

    /// Reads `count` bytes from `offset` in chunks, into one reused buffer.
    private func readCompressed(
        from offset: UInt64, count: UInt64, bufferSize: Int, _ consume: (Data) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var done: UInt64 = 0
        while done < count {
            let want = Int(min(UInt64(bufferSize), count - done))
            let got = pread(descriptor, buffer, want, off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw Failure("is cut short: the file ends inside it") }
            done += UInt64(got)
            try consume(Data(bytesNoCopy: buffer, count: got, deallocator: .none))
        }
    }

    /// Inflates the raw deflate stream of `count` bytes at `offset`: it must end within them.
    private func inflate(from offset: UInt64, count: UInt64, bufferSize: Int, _ consume: (Data) throws -> Void) throws {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure("cannot be inflated (zlib did not start)")
        }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: bufferSize)
        defer { output.deallocate() }
        var ended = false
        try readCompressed(from: offset, count: count, bufferSize: bufferSize) { input in
            guard !ended else { return }
            try input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                stream.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: UInt8.self).baseAddress)
                stream.avail_in = UInt32(raw.count)
                repeat {
                    stream.next_out = output
                    stream.avail_out = UInt32(bufferSize)
                    let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                    guard result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR else {
                        throw Failure("is damaged: its deflate stream is invalid")
                    }
                    let produced = bufferSize - Int(stream.avail_out)
                    if produced > 0 { try consume(Data(bytesNoCopy: output, count: produced, deallocator: .none)) }
                    if result == Z_STREAM_END {
                        ended = true
                        return
                    }
                    // No progress with input left and room to write: zlib needs what is not there.
                    if result == Z_BUF_ERROR, produced == 0 { return }
                } while stream.avail_in > 0 || stream.avail_out == 0
            }
        }
        guard ended else { throw Failure("is cut short: its deflate stream does not end within its compressed size") }
    }
}

/// Little-endian fields of a byte array, from `base`.
private struct Bytes {
    let bytes: [UInt8]
    let base: Int

    init(_ bytes: [UInt8], _ base: Int) {
        self.bytes = bytes
        self.base = base
    }

    func u16(_ at: Int) -> UInt16 { UInt16(bytes[base + at]) | UInt16(bytes[base + at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
}
