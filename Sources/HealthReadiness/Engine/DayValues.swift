/// Values by day number (days since 1970-01-01), with none on most days possible. Kept in an
/// array over a span of days — a dictionary hashed the day at every lookup, a tenth of a
/// readiness answer — and in a dictionary only for a span too wide to hold (days centuries
/// apart). A day outside the span has no value; setting one there widens it.
struct DayValues: Sendable, Equatable {
    /// Widest span kept in an array: 200,000 days (548 years), 3.2 MB.
    static let widestDenseSpan = 200_000

    private var first = 0
    private var dense: [Double?] = []
    private var sparse: [Int: Double]?

    /// Room for the days of `span` (a dictionary when it is wider than ``widestDenseSpan``).
    init(span: ClosedRange<Int>? = nil) {
        guard let span else { return }
        guard let width = Self.width(span.lowerBound, span.upperBound) else {
            sparse = [:]
            return
        }
        first = span.lowerBound
        dense = Array(repeating: nil, count: width)
    }

    /// Days from `low` through `high`, when at most ``widestDenseSpan`` (no overflow for any
    /// two day numbers).
    private static func width(_ low: Int, _ high: Int) -> Int? {
        let (difference, overflow) = high.subtractingReportingOverflow(low)
        return !overflow && difference < widestDenseSpan ? difference + 1 : nil
    }

    subscript(day: Int) -> Double? {
        get {
            if let sparse { return sparse[day] }
            let index = day &- first
            return index >= 0 && index < dense.count ? dense[index] : nil
        }
        set {
            if sparse != nil {
                sparse![day] = newValue
                return
            }
            if dense.isEmpty { first = day }
            let last = first + max(dense.count, 1) - 1
            guard Self.width(min(first, day), max(last, day)) != nil else {
                // Too wide for an array: the values move to a dictionary before any grows.
                var values = Dictionary(
                    uniqueKeysWithValues: dense.enumerated().compactMap { index, value in value.map { (first + index, $0) } })
                values[day] = newValue
                (sparse, dense) = (values, [])
                return
            }
            if day < first {
                dense.insert(contentsOf: repeatElement(nil, count: first - day), at: 0)
                first = day
            } else if day - first >= dense.count {
                dense.append(contentsOf: repeatElement(nil, count: day - first - dense.count + 1))
            }
            dense[day - first] = newValue
        }
    }

    /// The values on the days of `window`, oldest first.
    func values(in window: ClosedRange<Int>) -> [Double] {
        window.compactMap { self[$0] }
    }
}
