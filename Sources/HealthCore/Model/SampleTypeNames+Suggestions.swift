/// A type name that neither ``SampleTypeNames`` nor the store knows, with the closest
/// names a person may have meant.
public struct UnknownSampleTypeName: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name given.
    public let name: String
    /// The closest types, closest first: `steps (HKQuantityTypeIdentifierStepCount)`.
    public let suggestions: [String]

    public init(name: String, suggestions: [String]) {
        self.name = name
        self.suggestions = suggestions
    }

    public var description: String {
        let given = name.count > 80 ? String(name.prefix(80)) + "…" : name
        let guess = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", or "))?"
        return "unknown type '\(given)'\(guess) A type is a short name such as steps, heart_rate or sleep, "
            + "or a HealthKit identifier such as HKQuantityTypeIdentifierStepCount"
    }
}

extension SampleTypeNames {
    /// The `limit` types closest to `name` by edit distance, closest first (ties by name),
    /// as ``describe(_:)`` writes them. Case, `_`, `-` and spaces do not count, nor the
    /// identifier prefix: `StepCount`, `step count` and `HKQuantityTypeIdentifierStepCount`
    /// all read `stepcount`.
    public static func suggestions(for name: String, storedTypes: [SampleType] = [], limit: Int = 3) -> [String] {
        var candidates = entries.map(\.type)
        var known = Set(candidates)
        for type in storedTypes {
            if known.insert(type).inserted { candidates.append(type) }
        }
        let given = Set([folded(String(name.prefix(200))), folded(String(name.prefix(200)), keepingPrefix: true)])
        let scored = candidates.map { type -> (distance: Int, text: String) in
            var keys = Set([folded(type.identifier), folded(type.identifier, keepingPrefix: true)])
            for key in [shortName(of: type), derivedName(of: type)].compactMap({ $0 }) { keys.insert(folded(key)) }
            var best = Int.max
            for input in given {
                for key in keys { best = min(best, editDistance(input, key)) }
            }
            return (best, describe(type))
        }
        return scored.sorted { ($0.distance, $0.text) < ($1.distance, $1.text) }.prefix(limit).map { $0.text }
    }

    /// Lowercase letters and digits only, the identifier prefix dropped unless `keepingPrefix`.
    static func folded(_ text: String, keepingPrefix: Bool = false) -> [Unicode.Scalar] {
        var rest = Substring(text)
        if !keepingPrefix, let prefix = prefixes.first(where: { rest.hasPrefix($0) }) { rest = rest.dropFirst(prefix.count) }
        return Array(rest.lowercased().unicodeScalars).filter {
            $0.properties.isAlphabetic || $0.properties.numericType == .decimal
        }
    }

    /// The Levenshtein distance: insertions, deletions and substitutions, one each.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
