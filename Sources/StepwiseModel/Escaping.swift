extension StringProtocol {
    /// The text with `&`, `<` and `>` as character references, so that it stands as text in
    /// XML or HTML; with `quotes`, `"` too, and with `apostrophes`, `'` (for attribute values).
    public func escapingMarkup(quotes: Bool = false, apostrophes: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "'" where apostrophes: result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
