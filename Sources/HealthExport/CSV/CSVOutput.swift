/// Writes CSV rows (RFC 4180 quoting) through a fixed buffer to a sink: memory stays the
/// size of the buffer however many rows pass.
///
/// ```swift
/// let output = CSVOutput { bytes in try handle.write(contentsOf: bytes) }
/// try output.row(["Date", "Metric", "Value", "Unit"])
/// try output.finish()
/// ```
public final class CSVOutput {
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let sink: ((UnsafeRawBufferPointer) throws -> Void)?
    /// Full buffers of an output made without a sink, oldest first (``takeChunks()``).
    private var chunks: [[UInt8]] = []
    private var fieldsInRow = 0
    /// Bytes handed to the sink so far, and rows ended.
    public private(set) var bytesWritten: Int64 = 0
    public private(set) var rows = 0

    public init(capacity: Int = 1 << 16, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.capacity = capacity
        self.sink = sink
        buffer.reserveCapacity(capacity + 256)
    }

    /// An output that keeps its full buffers for an async reader to take
    /// (``takeChunks()``): an HTTP response body, written between pages of a scan.
    public init(capacity: Int = 1 << 16) {
        self.capacity = capacity
        self.sink = nil
        buffer.reserveCapacity(capacity + 256)
    }

    /// The buffers handed on since the last call, oldest first (an output made without a
    /// sink; always empty with one).
    public func takeChunks() -> [[UInt8]] {
        defer { chunks.removeAll() }
        return chunks
    }

    /// A text field, quoted when it holds a comma, a quote or a line break (quotes doubled).
    ///
    /// A field that a spreadsheet would run as a formula — starting with `=`, `+`, `-`, `@`,
    /// a tab or a carriage return, and not a plain number — gets a leading `'` (OWASP's
    /// "CSV injection"): a source named `=HYPERLINK(…)` is shown, never evaluated.
    public func field(_ text: String) {
        separate()
        var text = Self.neutralised(text)
        text.withUTF8 { bytes in
            guard bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
                buffer.append(contentsOf: bytes)
                return
            }
            buffer.append(0x22)
            for byte in bytes {
                buffer.append(byte)
                if byte == 0x22 { buffer.append(0x22) }
            }
            buffer.append(0x22)
        }
    }

    /// `text` with a `'` before a leading formula character, unless it is a number.
    static func neutralised(_ text: String) -> String {
        guard let first = text.utf8.first, [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains(first) else { return text }
        if first == 0x2D || first == 0x2B, Double(text) != nil, !text.contains(where: { $0.isLetter && $0 != "e" }) {
            return text
        }
        return "'" + text
    }

    /// A field whose bytes need no quoting (numbers, ISO timestamps), written by `body`.
    public func rawField(_ body: (inout [UInt8]) -> Void) {
        separate()
        body(&buffer)
    }

    /// Ends the row; hands the buffer on once it is full.
    public func endRow() throws {
        buffer.append(0x0A)
        fieldsInRow = 0
        rows += 1
        if buffer.count >= capacity { try flush() }
    }

    /// A whole row of text fields.
    public func row(_ fields: [String]) throws {
        for text in fields { field(text) }
        try endRow()
    }

    /// Hands everything buffered to the sink.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        if let sink {
            try buffer.withUnsafeBytes { try sink($0) }
        } else {
            chunks.append(buffer)
        }
        bytesWritten += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    private func separate() {
        if fieldsInRow > 0 { buffer.append(0x2C) }
        fieldsInRow += 1
    }
}
