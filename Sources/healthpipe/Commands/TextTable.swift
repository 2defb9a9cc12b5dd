extension String {
    /// This string without trailing `character`s.
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == character { end = index(before: end) }
        return String(self[..<end])
    }
}

/// Aligned plain-text columns: text columns padded on the right, numbers on the left.
enum TextTable {
    /// `rows[0]` is the header; `leftAligned` names the columns padded on the right.
    static func render(_ rows: [[String]], leftAligned: Set<Int>) -> String {
        guard let header = rows.first else { return "" }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { column in
                let pad = String(repeating: " ", count: widths[column] - row[column].count)
                return leftAligned.contains(column) ? row[column] + pad : pad + row[column]
            }.joined(separator: "  ").trimmingSuffix(" ")
        }.joined(separator: "\n")
    }
}
