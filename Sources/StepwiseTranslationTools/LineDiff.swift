/// What changed between two texts, line by line, as `diff -u` shows it with every line as
/// context: a `---` and a `+++` line naming the two, one hunk, ` ` before a line both have, `-`
/// before a line only the old text has and `+` before one only the new text has.
public enum LineDiff {
    /// The unified diff from `old` (called `oldName`) to `new` (called `newName`).
    public static func unified(from old: String, to new: String, oldName: String, newName: String) -> String {
        let before = lines(of: old)
        let after = lines(of: new)
        let header = ["--- " + oldName, "+++ " + newName, "@@ -\(range(before.count)) +\(range(after.count)) @@"]
        let diff = after.edits(from: before).map { edit in
            switch edit {
            case .kept(let line): " " + line
            case .removed(let line): "-" + line
            case .inserted(let line): "+" + line
            }
        }
        return (header + diff).joined(separator: "\n")
    }

    private static func lines(of text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A hunk's range of `count` lines from the first, as the hunk header writes it.
    private static func range(_ count: Int) -> String { count == 0 ? "0,0" : "1,\(count)" }
}
