import Foundation

extension Array {
    /// At most `count` elements, evenly spaced, the first and the last kept.
    public func thinned(to count: Int) -> [Element] {
        guard count >= 2, self.count > count else { return count < 2 ? Array(prefix(count)) : self }
        let step = Double(self.count - 1) / Double(count - 1)
        return (0..<count).map { self[Int((Double($0) * step).rounded())] }
    }
}
