import Foundation

/// A streaming, non-validating XML tokenizer over bytes pushed in chunks.
///
/// It reads exactly what Apple Health exports and GPX files need: elements, attributes,
/// character data, comments, CDATA and processing instructions. The DOCTYPE is skipped as
/// raw bytes up to the root element it names — Apple's iOS 16 DTD is malformed and
/// FoundationXML crashes on ATTLIST declarations on Linux — and its comments are still
/// reported (the `HealthKit Export Version` lives in one). Memory is the largest single
/// tag plus one chunk, whatever the size of the document.
struct XMLScanner<Handler: XMLHandler> {
    var handler: Handler
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    private var count = 0
    private var position = 0
    /// Bytes discarded from the front of the buffer so far.
    private(set) var consumedBytes: Int64 = 0
    private var linesBeforeBuffer = 0
    /// The attributes of the tag being read: room for ``maxAttributes`` + 1, allocated once.
    /// Not an array: the handler is called with a pointer to them and mutated in place (an
    /// array's `withUnsafeBufferPointer` closure made the compiler copy the handler, a
    /// kilobyte of state, in and out for every tag).
    private let attributes: UnsafeMutablePointer<XMLAttribute>
    private var attributeCount = 0
    private var openNames: [UInt8] = []
    private var openLengths: [Int] = []
    private var sawRoot = false
    private var rootClosed = false
    /// How far past its `<` the search for the end of the unfinished construct at
    /// `position` got (a comment, processing instruction, CDATA section, end tag or
    /// DOCTYPE): the next chunk resumes there. Searched from its start on every chunk, a
    /// construct of megabytes cost time growing with its square (a 50 kB zip held an
    /// import for 79 s).
    private var searched = 0
    /// The same for character data the handler wants (a GPX value) that has no `<` yet:
    /// how far past `position` the search for its end got.
    private var textSearched = 0
    /// The most the scanner holds whole until it ends — a start tag, comment, CDATA section,
    /// declaration, end tag, or character data the handler wants: one that runs on past it
    /// is refused (each chunk also parses an unfinished start tag again from its `<`).
    static var maxHeldBytes: Int { 16 << 20 }
    /// The most attributes of one start tag (Apple's have at most about 15): a 15 MB tag of
    /// tiny attributes held 768 MB and took 3 s, each chunk parsing it again.
    static var maxAttributes: Int { 1_024 }

    init(handler: Handler, initialCapacity: Int = 1 << 20) {
        self.handler = handler
        capacity = initialCapacity
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        attributes = UnsafeMutablePointer.allocate(capacity: Self.maxAttributes + 1)
    }

    /// Frees the buffers. Call once when done.
    func deallocate() {
        buffer.deallocate()
        attributes.deallocate()
    }

    private var currentAttributes: UnsafeBufferPointer<XMLAttribute> {
        UnsafeBufferPointer(start: attributes, count: attributeCount)
    }

    /// The absolute byte offset of the next unread byte.
    var byteOffset: Int64 { consumedBytes + Int64(position) }

    /// Pushes the next chunk of the document and tokenizes every complete construct in it.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
        compact()
        if count + chunk.count > capacity {
            var newCapacity = capacity
            while newCapacity < count + chunk.count { newCapacity *= 2 }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
            grown.copyMemory(from: buffer, byteCount: count)
            buffer.deallocate()
            buffer = grown
            capacity = newCapacity
        }
        if let source = chunk.baseAddress { (buffer + count).copyMemory(from: source, byteCount: chunk.count) }
        count += chunk.count
        try scan(final: false)
    }

    /// Pushes a `Data` chunk.
    mutating func feed(_ data: Data) throws {
        try data.withUnsafeBytes { try feed($0) }
    }

    /// Ends the document: everything must be closed.
    mutating func finish() throws {
        try scan(final: true)
        if position < count {
            throw XMLScanError(.truncated("an unfinished tag or declaration"), at: location(of: position))
        }
        if !sawRoot { throw XMLScanError(.noRootElement, at: location(of: position)) }
        if !openLengths.isEmpty {
            throw XMLScanError(.truncated("<\(openElementPath)> is not closed"), at: location(of: position))
        }
    }

    /// Line and byte offset of a buffer position, for error messages.
    func location(of bufferPosition: Int) -> XMLLocation {
        let line = linesBeforeBuffer + 1 + XMLScanner.countNewlines(buffer, bufferPosition)
        return XMLLocation(byteOffset: consumedBytes + Int64(bufferPosition), line: line)
    }

    /// The location of the construct being read now.
    var currentLocation: XMLLocation { location(of: position) }

    private var openElementPath: String {
        var names: [String] = []
        var offset = 0
        for length in openLengths {
            names.append(String(decoding: openNames[offset..<offset + length], as: UTF8.self))
            offset += length
        }
        return names.joined(separator: "><")
    }

    private mutating func compact() {
        guard position > 0 else { return }
        linesBeforeBuffer += XMLScanner.countNewlines(buffer, position)
        let remaining = count - position
        if remaining > 0 { buffer.copyMemory(from: buffer + position, byteCount: remaining) }
        consumedBytes += Int64(position)
        count = remaining
        position = 0
    }

    @inline(__always) private func byte(_ index: Int) -> UInt8 {
        buffer.load(fromByteOffset: index, as: UInt8.self)
    }

    @inline(__always) private func find(_ value: UInt8, from: Int) -> Int? {
        guard from < count, let found = memchr(buffer + from, Int32(value), count - from) else { return nil }
        return buffer.distance(to: found)
    }

    private func find(_ needle: StaticString, from: Int) -> Int? {
        let length = needle.utf8CodeUnitCount
        var start = from
        while let candidate = find(needle.utf8Start.pointee, from: start) {
            if candidate + length > count { return nil }
            if memcmp(buffer + candidate, needle.utf8Start, length) == 0 { return candidate }
            start = candidate + 1
        }
        return nil
    }

    private func hasPrefix(_ prefix: StaticString, at index: Int) -> Bool? {
        let length = prefix.utf8CodeUnitCount
        if index + length > count { return nil }
        return memcmp(buffer + index, prefix.utf8Start, length) == 0
    }

    private mutating func scan(final: Bool) throws {
        while position < count {
            guard let open = find(60, from: position + textSearched) else {  // '<'
                if handler.wantsText, count > position, final {
                    try handler.text(XMLText(base: buffer, range: ByteRange(start: position, end: count)))
                }
                if final || !handler.wantsText {
                    try checkStray(position, count)
                    position = count
                } else if count - position > Self.maxHeldBytes {
                    throw XMLScanError(.malformed("a text value of more than 16 MB"), at: location(of: position))
                } else {
                    textSearched = count - position
                }
                return
            }
            textSearched = 0
            if open > position {
                if handler.wantsText {
                    try handler.text(XMLText(base: buffer, range: ByteRange(start: position, end: open)))
                } else {
                    try checkStray(position, open)
                }
            }
            position = open
            guard let next = try markup(at: open) else { return }
            position = next
            searched = 0
        }
    }

    /// Character data outside the elements that want it must be white space (anything else
    /// means the file is not what we think it is).
    private func checkStray(_ start: Int, _ end: Int) throws {
        guard openLengths.isEmpty else { return }
        var index = start
        while index < end {
            let value = byte(index)
            if !XMLScanner.isSpace(value), !(value == 0xEF || value == 0xBB || value == 0xBF) {
                throw XMLScanError(.unexpectedText, at: location(of: index))
            }
            index += 1
        }
    }

    /// Reads one construct starting at `<`; returns the position after it, or `nil` when
    /// the buffer ends inside it.
    private mutating func markup(at open: Int) throws -> Int? {
        guard open + 1 < count else { return nil }
        switch byte(open + 1) {
        case 47:  // '/'
            guard let close = find(62, from: max(open + 2, open + searched)) else { return try unfinished(open, keeping: 0) }
            var nameEnd = close
            while nameEnd > open + 2, XMLScanner.isSpace(byte(nameEnd - 1)) { nameEnd -= 1 }
            let name = ByteRange(start: open + 2, end: nameEnd)
            try popElement(name, at: open)
            attributeCount = 0
            try handler.endElement(XMLTag(base: buffer, name: name, attributes: currentAttributes))
            return close + 1
        case 63:  // '?'
            guard let close = find("?>", from: max(open + 2, open + searched)) else { return try unfinished(open, keeping: 1) }
            return close + 2
        case 33:  // '!'
            guard let isComment = hasPrefix("<!--", at: open) else { return nil }
            if isComment {
                guard let close = find("-->", from: max(open + 4, open + searched)) else {
                    return try unfinished(open, keeping: 2)
                }
                handler.comment(XMLText(base: buffer, range: ByteRange(start: open + 4, end: close)))
                return close + 3
            }
            guard let isCDATA = hasPrefix("<![CDATA[", at: open) else { return nil }
            if isCDATA {
                guard let close = find("]]>", from: max(open + 9, open + searched)) else {
                    return try unfinished(open, keeping: 2)
                }
                if handler.wantsText {
                    try handler.text(XMLText(base: buffer, range: ByteRange(start: open + 9, end: close), raw: true))
                }
                return close + 3
            }
            guard let isDoctype = hasPrefix("<!DOCTYPE", at: open) else { return nil }
            if isDoctype { return try skipDoctype(at: open) }
            throw XMLScanError(.malformed("unknown declaration"), at: location(of: open))
        default:
            guard let next = try startTag(at: open) else {
                if count - open > Self.maxHeldBytes {
                    throw XMLScanError(.malformed("a start tag of more than 16 MB"), at: location(of: open))
                }
                return nil
            }
            return next
        }
    }

    /// `nil`, the construct at `open` unfinished: the next search for its end starts where
    /// this one stopped, less the `keeping` bytes that may begin its closing delimiter.
    /// Past ``maxHeldBytes`` the construct is refused: it is held whole until its end.
    private mutating func unfinished(_ open: Int, keeping: Int) throws -> Int? {
        if count - open > Self.maxHeldBytes {
            throw XMLScanError(
                .malformed("a comment, CDATA section, declaration or end tag of more than 16 MB"), at: location(of: open))
        }
        searched = max(searched, count - open - keeping)
        return nil
    }

    /// Skips `<!DOCTYPE name [ … ]>` as raw bytes, up to the `<name` root tag (the internal
    /// subset of iOS 16 exports is malformed, so it is never parsed), reporting its comments.
    private mutating func skipDoctype(at open: Int) throws -> Int? {
        var index = open + 9
        while index < count, XMLScanner.isSpace(byte(index)) { index += 1 }
        let nameStart = index
        while index < count, !XMLScanner.isSpace(byte(index)), byte(index) != 91, byte(index) != 62 { index += 1 }
        guard index < count else { return nil }
        let rootName = Array(UnsafeRawBufferPointer(start: buffer + nameStart, count: index - nameStart))
        while index < count, XMLScanner.isSpace(byte(index)) { index += 1 }
        guard index < count else { return nil }
        if byte(index) == 62 { return index + 1 }  // no internal subset
        // Find "<rootName" followed by a delimiter.
        var search = max(index, open + searched)
        while let candidate = find(60, from: search) {
            let end = candidate + 1 + rootName.count
            guard end < count else { return try unfinished(open, keeping: count - candidate) }
            if memcmp(buffer + candidate + 1, rootName, rootName.count) == 0 {
                let after = byte(end)
                if XMLScanner.isSpace(after) || after == 62 || after == 47 {
                    reportComments(from: index, to: candidate)
                    return candidate
                }
            }
            search = candidate + 1
        }
        return try unfinished(open, keeping: 0)
    }

    private mutating func reportComments(from start: Int, to end: Int) {
        var index = start
        while let open = find("<!--", from: index), open < end, let close = find("-->", from: open + 4), close <= end {
            handler.comment(XMLText(base: buffer, range: ByteRange(start: open + 4, end: close)))
            index = close + 3
        }
    }

    private mutating func startTag(at open: Int) throws -> Int? {
        var index = open + 1
        let nameStart = index
        while index < count {
            let value = byte(index)
            if XMLScanner.isSpace(value) || value == 62 || value == 47 { break }
            index += 1
        }
        guard index < count else { return nil }
        let name = ByteRange(start: nameStart, end: index)
        if name.count == 0 { throw XMLScanError(.malformed("a tag without a name"), at: location(of: open)) }
        attributeCount = 0
        while true {
            while index < count, XMLScanner.isSpace(byte(index)) { index += 1 }
            guard index < count else { return nil }
            let value = byte(index)
            if value == 62 {
                try openElement(name, at: open, selfClosing: false)
                return index + 1
            }
            if value == 47 {
                guard index + 1 < count else { return nil }
                guard byte(index + 1) == 62 else {
                    throw XMLScanError(.malformed("'/' not followed by '>'"), at: location(of: index))
                }
                try openElement(name, at: open, selfClosing: true)
                return index + 2
            }
            let attributeStart = index
            while index < count {
                let current = byte(index)
                if current == 61 || XMLScanner.isSpace(current) || current == 62 || current == 47 { break }
                index += 1
            }
            let attributeName = ByteRange(start: attributeStart, end: index)
            while index < count, XMLScanner.isSpace(byte(index)) { index += 1 }
            guard index < count else { return nil }
            guard byte(index) == 61, attributeName.count > 0 else {
                throw XMLScanError(.malformed("an attribute without '=' and a quoted value"), at: location(of: index))
            }
            index += 1
            while index < count, XMLScanner.isSpace(byte(index)) { index += 1 }
            guard index < count else { return nil }
            let quote = byte(index)
            guard quote == 34 || quote == 39 else {
                throw XMLScanError(.malformed("an attribute value without quotes"), at: location(of: index))
            }
            guard let close = find(quote, from: index + 1) else {
                if count - index > 16 << 20 {
                    throw XMLScanError(.malformed("an attribute value that never ends"), at: location(of: index))
                }
                return nil
            }
            let valueRange = ByteRange(start: index + 1, end: close)
            let hasEntity = valueRange.count > 0 && memchr(buffer + valueRange.start, 38, valueRange.count) != nil
            (attributes + attributeCount).initialize(
                to: XMLAttribute(name: attributeName, value: valueRange, hasEntity: hasEntity))
            attributeCount += 1
            if attributeCount > Self.maxAttributes {
                throw XMLScanError(.malformed("a start tag of more than 1,024 attributes"), at: location(of: open))
            }
            index = close + 1
        }
    }

    private mutating func openElement(_ name: ByteRange, at open: Int, selfClosing: Bool) throws {
        if openLengths.isEmpty {
            if rootClosed { throw XMLScanError(.malformed("content after the root element"), at: location(of: open)) }
            sawRoot = true
        }
        let tag = XMLTag(base: buffer, name: name, attributes: currentAttributes)
        try handler.startElement(tag)
        if selfClosing { try handler.endElement(tag) }
        if selfClosing {
            if openLengths.isEmpty { rootClosed = true }
        } else {
            openNames.append(contentsOf: UnsafeRawBufferPointer(start: buffer + name.start, count: name.count))
            openLengths.append(name.count)
        }
    }

    private mutating func popElement(_ name: ByteRange, at open: Int) throws {
        guard let length = openLengths.last else {
            throw XMLScanError(.malformed("a closing tag without an opening one"), at: location(of: open))
        }
        let start = openNames.count - length
        let matches =
            length == name.count
            && openNames.withUnsafeBufferPointer {
                memcmp($0.baseAddress! + start, buffer + name.start, length) == 0
            }
        guard matches else {
            let expected = String(decoding: openNames[start...], as: UTF8.self)
            throw XMLScanError(.malformed("a closing tag that does not match <\(expected)>"), at: location(of: open))
        }
        openNames.removeLast(length)
        openLengths.removeLast()
        if openLengths.isEmpty { rootClosed = true }
    }
}
