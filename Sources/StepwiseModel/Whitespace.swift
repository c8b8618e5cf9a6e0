extension RangeReplaceableCollection {
    /// The collection with each run of elements for which `isSpace` holds replaced by one
    /// `space`; the ends are kept (as one `space`).
    public func foldingRuns(where isSpace: (Element) -> Bool, into space: Element) -> Self {
        var result = Self()
        var inRun = false
        for element in self {
            if isSpace(element) {
                if !inRun { result.append(space) }
                inRun = true
            } else {
                result.append(element)
                inRun = false
            }
        }
        return result
    }
}

extension String {
    /// Runs of white space (line breaks included) folded into one space; the ends are kept (as one space).
    public func foldingWhitespace() -> String { foldingRuns(where: \.isWhitespace, into: " ") }

    /// Runs of white space (line breaks included) folded into one space, ends trimmed.
    public func collapsingWhitespace() -> String {
        let folded = foldingWhitespace()
        return String(folded.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
