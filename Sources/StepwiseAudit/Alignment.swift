import StepwiseModel

/// Pairs a translation's segments with the source's, one container at a time.
///
/// Listings and outputs are anchors, paired by id. Between anchors, a translation segment
/// pairs with the source segment whose current hash it recorded; what is left pairs up in
/// order, kind with kind (stale: translated from another version), and the rest is missing
/// from the translation or extra in it.
enum Alignment {
    /// A source segment and its translation; either may be absent.
    struct Pair {
        var source: Segment?
        var translation: Segment?
    }

    static func align(source: [Segment], translation: [Segment]) -> [Pair] {
        let difference = translation.difference(from: source) { ours, theirs in
            guard ours.kind == theirs.kind else { return false }
            if let anchor = ours.anchor { return anchor == theirs.anchor }
            if ours.kind == .title { return true }
            return theirs.text.recordedHash == ours.text.hash
        }
        let (removed, inserted) = difference.offsets
        var pairs: [Pair] = []
        var unmatchedSource: [Segment] = []
        var unmatchedTranslation: [Segment] = []
        func flush() {
            var rest = unmatchedTranslation
            for segment in unmatchedSource {
                if let index = rest.firstIndex(where: { $0.kind == segment.kind && $0.anchor == segment.anchor }) {
                    // Extras before the match stay in reading order.
                    pairs += rest[..<index].map { Pair(source: nil, translation: $0) }
                    pairs.append(Pair(source: segment, translation: rest[index]))
                    rest.removeSubrange(...index)
                } else {
                    pairs.append(Pair(source: segment, translation: nil))
                }
            }
            pairs += rest.map { Pair(source: nil, translation: $0) }
            unmatchedSource = []
            unmatchedTranslation = []
        }
        var sourceIndex = 0
        var translationIndex = 0
        while sourceIndex < source.count || translationIndex < translation.count {
            if sourceIndex < source.count, removed.contains(sourceIndex) {
                unmatchedSource.append(source[sourceIndex])
                sourceIndex += 1
            } else if translationIndex < translation.count, inserted.contains(translationIndex) {
                unmatchedTranslation.append(translation[translationIndex])
                translationIndex += 1
            } else if sourceIndex < source.count, translationIndex < translation.count {
                flush()
                pairs.append(Pair(source: source[sourceIndex], translation: translation[translationIndex]))
                sourceIndex += 1
                translationIndex += 1
            } else {
                break
            }
        }
        flush()
        return pairs
    }
}
