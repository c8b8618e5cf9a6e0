extension CollectionDifference {
    /// The offsets this difference removes from the old collection and inserts into the new one.
    public var offsets: (removed: Set<Int>, inserted: Set<Int>) {
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in self {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        return (removed, inserted)
    }
}

/// One entry of an edit script: an element both collections have, or one only the old or
/// only the new one has.
public enum Edit<Element: Equatable>: Equatable {
    /// In both.
    case kept(Element)
    /// Only in the old collection.
    case removed(Element)
    /// Only in the new collection.
    case inserted(Element)
}

extension Array where Element: Equatable {
    /// The edit script that turns `old` into this array, in order: where they differ, what
    /// `old` loses comes before what this array gains, and what both have lies between.
    public func edits(from old: [Element]) -> [Edit<Element>] {
        let (removed, inserted) = difference(from: old).offsets
        var script: [Edit<Element>] = []
        var (oldIndex, newIndex) = (0, 0)
        while oldIndex < old.count || newIndex < count {
            if oldIndex < old.count, removed.contains(oldIndex) {
                script.append(.removed(old[oldIndex]))
                oldIndex += 1
            } else if newIndex < count, inserted.contains(newIndex) {
                script.append(.inserted(self[newIndex]))
                newIndex += 1
            } else {
                script.append(.kept(self[newIndex]))
                oldIndex += 1
                newIndex += 1
            }
        }
        return script
    }
}
