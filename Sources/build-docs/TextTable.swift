/// A table for the terminal: a header, a rule and rows, the first `leftAligned` columns
/// padded on the right, the others (numbers) on the left.
struct TextTable {
    var header: [String]
    var rows: [[String]]
    var leftAligned = 2

    private var widths: [Int] {
        header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
    }

    /// A line of `─` under each column.
    var rule: String { widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") }

    /// The header, the rule, then the rows.
    var lines: [String] {
        let widths = self.widths
        let format = { (row: [String]) in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < leftAligned ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        return [format(header), rule] + rows.map(format)
    }
}
