import CZlib
import Foundation

/// Raw deflate (RFC 1951) of a whole buffer, both ways, on zlib. Inflation stops at a
/// ceiling: a few kilobytes that claim to be gigabytes are refused, not inflated.
public enum Deflate {
    /// A stream that does not inflate, or inflates past its ceiling.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `data` deflated at `level` (1 fastest … 9 smallest; 6 zlib's default).
    public static func compress(_ data: Data, level: Int32 = 6) throws -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { throw Failure(description: "zlib did not start") }
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, UInt(data.count))))
        let written = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Int in
            output.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Int in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.bindMemory(to: UInt8.self).baseAddress
                stream.avail_out = UInt32(out.count)
                // deflateBound leaves room for everything: one call finishes the stream.
                guard CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END else { return -1 }
                return out.count - Int(stream.avail_out)
            }
        }
        guard written >= 0 else { throw Failure(description: "zlib could not finish the stream") }
        output.count = written
        return output
    }

    /// The bytes `data` inflates to, at most `limit` of them. The stream must end within
    /// `data` and nothing may follow it.
    public static func decompress(_ data: Data, limit: Int) throws -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib did not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunk = 1 << 16
        var buffer = [UInt8](repeating: 0, count: chunk)
        var ended = false
        try data.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
            stream.avail_in = UInt32(input.count)
            while !ended {
                let (result, produced) = buffer.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(chunk)
                    let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (result, chunk - Int(stream.avail_out))
                }
                guard result == Z_OK || result == Z_STREAM_END else {
                    throw Failure(
                        description: result == Z_BUF_ERROR ? "the deflate stream is cut short" : "the deflate stream is invalid")
                }
                guard output.count + produced <= limit else {
                    throw Failure(description: "the deflate stream inflates to more than \(limit) bytes")
                }
                output.append(contentsOf: buffer[0..<produced])
                ended = result == Z_STREAM_END
            }
            guard stream.avail_in == 0 else { throw Failure(description: "bytes follow the end of the deflate stream") }
        }
        return output
    }
}
