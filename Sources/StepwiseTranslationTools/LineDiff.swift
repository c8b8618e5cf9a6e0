/// What changed between two texts, line by line, as `diff -u` shows it with every line as
/// context: a `---` and a `+++` line naming the two, one hunk, ` ` before a line both have, `-`
/// before a line only the old text has and `+` before one only the new text has.
public enum LineDiff {
    /// The unified diff from `old` (called `oldName`) to `new` (called `newName`).
    public static func unified(from old: String, to new: String, oldName: String, newName: String) -> String {
        let before = lines(of: old)
        let after = lines(of: new)
        let (removed, inserted) = after.difference(from: before).offsets
        var diff = ["--- " + oldName, "+++ " + newName, "@@ -\(range(before.count)) +\(range(after.count)) @@"]
        var (oldIndex, newIndex) = (0, 0)
        while oldIndex < before.count || newIndex < after.count {
            if oldIndex < before.count, removed.contains(oldIndex) {
                diff.append("-" + before[oldIndex])
                oldIndex += 1
            } else if newIndex < after.count, inserted.contains(newIndex) {
                diff.append("+" + after[newIndex])
                newIndex += 1
            } else {
                diff.append(" " + before[oldIndex])
                oldIndex += 1
                newIndex += 1
            }
        }
        return diff.joined(separator: "\n")
    }

    private static func lines(of text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A hunk's range of `count` lines from the first, as the hunk header writes it.
    private static func range(_ count: Int) -> String { count == 0 ? "0,0" : "1,\(count)" }
}
