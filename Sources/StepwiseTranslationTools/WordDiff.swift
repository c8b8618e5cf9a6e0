/// What changed between two versions of a segment, word by word, as `git diff --word-diff`
/// shows it: `[-removed-]{+added+}`.
public enum WordDiff {
    /// The words of `new`, with what `old` had instead marked.
    public static func describe(from old: String, to new: String) -> String {
        let before = old.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let after = new.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var words: [String] = []
        var (gone, added): ([String], [String]) = ([], [])
        for edit in after.edits(from: before) {
            switch edit {
            case .removed(let word): gone.append(word)
            case .inserted(let word): added.append(word)
            case .kept(let word):
                words += marked(gone, added) + [word]
                (gone, added) = ([], [])
            }
        }
        return (words + marked(gone, added)).joined(separator: " ")
    }

    /// `[-gone-]{+added+}`, each part only when it has words.
    private static func marked(_ gone: [String], _ added: [String]) -> [String] {
        (gone.isEmpty ? [] : ["[-\(gone.joined(separator: " "))-]"])
            + (added.isEmpty ? [] : ["{+\(added.joined(separator: " "))+}"])
    }
}
