#if !canImport(HealthKit)
    /// Reads HealthKit's unit grammar:
    ///
    ///     unit    := product ('/' product)*      a/b·c = a/(b·c); a/b/c = a/(b·c)
    ///     product := power (('*' | '·') power)*
    ///     power   := atom ('^' '-'? digits)?
    ///     atom    := prefix? symbol | prefix? 'mol<' number '>' | '(' unit ')'
    struct HKUnitParser {
        private let string: String
        private let characters: [Character]
        private var index = 0

        init(_ string: String) {
            self.string = string
            self.characters = Array(string)
        }

        mutating func parse() throws -> [HKUnit.Factor] {
            guard !characters.isEmpty else { throw failure("an empty string is not a unit") }
            let factors = try unit()
            guard index == characters.count else { throw failure("unexpected '\(characters[index])'") }
            return factors
        }

        private func failure(_ reason: String) -> HKUnitParseError {
            HKUnitParseError(string: string, position: index, reason: reason)
        }

        private var current: Character? { index < characters.count ? characters[index] : nil }

        private mutating func unit() throws -> [HKUnit.Factor] {
            var factors = try product()
            while current == "/" {
                index += 1
                factors += try product().map { inverted($0) }
            }
            return factors
        }

        private func inverted(_ factor: HKUnit.Factor) -> HKUnit.Factor {
            HKUnit.Factor(base: factor.base, prefix: factor.prefix, exponent: -factor.exponent)
        }

        private mutating func product() throws -> [HKUnit.Factor] {
            var factors = try power()
            while current == "*" || current == "·" {
                index += 1
                factors += try power()
            }
            return factors
        }

        private mutating func power() throws -> [HKUnit.Factor] {
            let factors = try atom()
            guard current == "^" else { return factors }
            index += 1
            let start = index
            if current == "-" { index += 1 }
            while let character = current, character.isASCII, character.isNumber { index += 1 }
            guard let exponent = Int(String(characters[start..<index])), exponent != 0 else {
                index = start
                throw failure("'^' must be followed by a non-zero whole number")
            }
            return factors.map { HKUnit.Factor(base: $0.base, prefix: $0.prefix, exponent: $0.exponent * exponent) }
        }

        private mutating func atom() throws -> [HKUnit.Factor] {
            if current == "(" {
                index += 1
                let factors = try unit()
                guard current == ")" else { throw failure("missing ')'") }
                index += 1
                return factors
            }
            let start = index
            while let character = current, character.isLetter || character == "_" || character == "%" { index += 1 }
            var word = String(characters[start..<index])
            if current == "<" {
                guard word.hasSuffix("mol") else { throw failure("'<' follows only 'mol' (a molar mass)") }
                index += 1
                let massStart = index
                while let character = current, character != ">" { index += 1 }
                let text = String(characters[massStart..<index])
                guard current == ">", let grams = Double(text), grams > 0, grams.isFinite else {
                    index = massStart
                    throw failure("a molar mass is a positive number closed by '>'")
                }
                index += 1
                word.removeLast("mol".count)
                guard let prefix = HKMetricPrefix.allSymbols[word] else {
                    throw failure("unknown prefix '\(word)' before 'mol<…>'")
                }
                return [HKUnit.Factor(base: HKUnit.molar(grams, spelled: text), prefix: prefix, exponent: 1)]
            }
            guard !word.isEmpty else {
                throw failure(current.map { "unexpected '\($0)'" } ?? "a unit is missing at the end")
            }
            guard let factor = Self.factor(word) else {
                index = start
                throw failure("unknown unit '\(word)'")
            }
            return [factor]
        }

        /// A symbol as a base unit, else as a prefix and a base unit that takes prefixes.
        static func factor(_ word: String) -> HKUnit.Factor? {
            if let base = HKUnit.bases[word] { return HKUnit.Factor(base: base, prefix: .none, exponent: 1) }
            for prefix in HKMetricPrefix.bySymbolLength where word.hasPrefix(prefix.symbol) {
                if let base = HKUnit.bases[String(word.dropFirst(prefix.symbol.count))], base.prefixable {
                    return HKUnit.Factor(base: base, prefix: prefix, exponent: 1)
                }
            }
            return nil
        }
    }

    extension HKMetricPrefix {
        /// Every prefix by its symbol, `""` for none.
        static let allSymbols: [String: HKMetricPrefix] = Dictionary(
            uniqueKeysWithValues: ([.none] + bySymbolLength).map { ($0.symbol, $0) })
    }
#endif
