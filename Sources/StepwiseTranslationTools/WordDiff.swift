/// What changed between two versions of a segment, word by word, as `git diff --word-diff`
/// shows it: `[-removed-]{+added+}`.
public enum WordDiff {
    /// The words of `new`, with what `old` had instead marked.
    public static func describe(from old: String, to new: String) -> String {
        let before = old.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let after = new.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let difference = after.difference(from: before)
        let (removed, inserted) = difference.offsets
        var words: [String] = []
        var oldIndex = 0
        var newIndex = 0
        while oldIndex < before.count || newIndex < after.count {
            var gone: [String] = []
            var added: [String] = []
            while oldIndex < before.count, removed.contains(oldIndex) {
                gone.append(before[oldIndex])
                oldIndex += 1
            }
            while newIndex < after.count, inserted.contains(newIndex) {
                added.append(after[newIndex])
                newIndex += 1
            }
            if !gone.isEmpty { words.append("[-\(gone.joined(separator: " "))-]") }
            if !added.isEmpty { words.append("{+\(added.joined(separator: " "))+}") }
            if oldIndex < before.count, newIndex < after.count, gone.isEmpty, added.isEmpty {
                words.append(after[newIndex])
                oldIndex += 1
                newIndex += 1
            } else if gone.isEmpty, added.isEmpty {
                break
            }
        }
        return words.joined(separator: " ")
    }
}
