extension Device {
    /// The keys the export's `device` string is known to hold, as written there.
    nonisolated(unsafe) static let knownKeys: [(key: String, path: WritableKeyPath<Device, String?>)] = [
        ("name", \.name), ("manufacturer", \.manufacturer), ("model", \.model),
        ("hardware", \.hardware), ("software", \.software), ("firmware", \.firmware),
        ("localIdentifier", \.localIdentifier), ("UDIDeviceIdentifier", \.udiDeviceIdentifier),
        ("creation date", \.creationDate),
    ]

    /// Parses the export's `device` attribute. Values contain `,`, `:` and spaces, so the
    /// string is split only where `, KEY:` names a known key; the `0x…` object address is
    /// ignored. Returns `nil` for an empty string.
    public init?(exportString raw: String) {
        let body = Device.stripAddress(raw)
        guard !body.isEmpty else { return nil }
        self.init()
        // Find every ", key:" (or a leading "key:") and cut the string there.
        var cuts: [(range: Range<String.Index>, path: WritableKeyPath<Device, String?>)] = []
        for (key, path) in Device.knownKeys {
            if body.hasPrefix(key + ":") {
                cuts.append((body.startIndex..<body.index(body.startIndex, offsetBy: key.count + 1), path))
            }
            var searchStart = body.startIndex
            while let found = body.range(of: ", " + key + ":", range: searchStart..<body.endIndex) {
                cuts.append((found, path))
                searchStart = found.upperBound
            }
        }
        cuts.sort { $0.range.lowerBound < $1.range.lowerBound }
        for (index, cut) in cuts.enumerated() {
            let valueEnd = index + 1 < cuts.count ? cuts[index + 1].range.lowerBound : body.endIndex
            guard cut.range.upperBound <= valueEnd else { continue }
            let value = String(body[cut.range.upperBound..<valueEnd])
            if self[keyPath: cut.path] == nil { self[keyPath: cut.path] = value }
        }
        if cuts.isEmpty { name = body }
    }

    /// The device string without its `<<HKDevice: 0x…>, ` prefix and trailing `>`: stable
    /// across exports, which is what the content key uses.
    public static func stripAddress(_ raw: String) -> String {
        var text = Substring(raw)
        if text.hasPrefix("<<HKDevice:"), let close = text.firstIndex(of: ">") {
            text = text[text.index(after: close)...]
            if text.hasPrefix(",") { text = text.dropFirst() }
            while text.first == " " { text = text.dropFirst() }
            if text.hasSuffix(">") { text = text.dropLast() }
        }
        return String(text)
    }
}
