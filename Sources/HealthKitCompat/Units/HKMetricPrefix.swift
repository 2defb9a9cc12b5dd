#if !canImport(HealthKit)
    /// SI prefixes, as HealthKit numbers them.
    public enum HKMetricPrefix: Int, Sendable {
        case none = 0
        case pico = 1
        case nano = 2
        case micro = 3
        case milli = 4
        case centi = 5
        case deci = 6
        case deca = 7
        case hecto = 8
        case kilo = 9
        case mega = 10
        case giga = 11
        case tera = 12
        case femto = 13

        /// The prefix as unit strings spell it (`mc` for micro, as HealthKit writes it).
        var symbol: String {
            switch self {
            case .none: ""
            case .pico: "p"
            case .nano: "n"
            case .micro: "mc"
            case .milli: "m"
            case .centi: "c"
            case .deci: "d"
            case .deca: "da"
            case .hecto: "h"
            case .kilo: "k"
            case .mega: "M"
            case .giga: "G"
            case .tera: "T"
            case .femto: "f"
            }
        }

        /// The power of ten the prefix stands for.
        var exponent: Int {
            switch self {
            case .none: 0
            case .pico: -12
            case .nano: -9
            case .micro: -6
            case .milli: -3
            case .centi: -2
            case .deci: -1
            case .deca: 1
            case .hecto: 2
            case .kilo: 3
            case .mega: 6
            case .giga: 9
            case .tera: 12
            case .femto: -15
            }
        }

        /// Longest symbol first, so that `da` is tried before `d`.
        static let bySymbolLength: [HKMetricPrefix] = [
            .micro, .deca, .pico, .nano, .milli, .centi, .deci, .hecto, .kilo, .mega, .giga, .tera, .femto,
        ]
    }
#endif
