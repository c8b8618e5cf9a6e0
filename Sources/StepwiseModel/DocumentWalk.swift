/// A part of a document's tree, as the walk over it meets it.
public enum DocumentNode {
    /// A block: a paragraph, heading, list, note, listing or expected output.
    case block(Block)
    /// An item of a list, numbered from 1.
    case item(ListItem, number: Int, ordered: Bool)
    /// Inline text or markup.
    case inline(Inline)
}

/// What a consumer of the document tree does at each node. The one walk over blocks and
/// inlines is `walk(_:)`: word count, the language check, segments, the HTML and terminal
/// renderers, inline markup, XLIFF placeholders and the search index say what they make of
/// each node, and none of them descends by hand (mdBook's `for_each_mut` and swift-markdown's
/// `MarkupWalker` are the models).
public protocol DocumentVisitor {
    /// Called as the walk enters `node`, before its children; false skips the children.
    mutating func enter(_ node: DocumentNode) -> Bool
    /// Called as the walk leaves `node`, after its children (or right after `enter` when
    /// they were skipped).
    mutating func leave(_ node: DocumentNode)
}

extension DocumentVisitor {
    /// Nothing to do when leaving.
    public mutating func leave(_ node: DocumentNode) {}

    /// Walks `blocks` in reading order, depth first.
    public mutating func walk(_ blocks: [Block]) {
        for block in blocks { walk(.block(block)) }
    }

    /// Walks `inlines` in reading order, depth first.
    public mutating func walk(_ inlines: [Inline]) {
        for inline in inlines { walk(.inline(inline)) }
    }

    /// Walks `node` and everything under it.
    public mutating func walk(_ node: DocumentNode) {
        if enter(node) {
            switch node {
            case .block(.paragraph(let inlines, _)), .block(.heading(let inlines, _)): walk(inlines)
            case .block(.list(let ordered, let items, _)):
                for (index, item) in items.enumerated() { walk(.item(item, number: index + 1, ordered: ordered)) }
            case .block(.note(_, let blocks, _)): walk(blocks)
            case .block(.listing), .block(.output): break
            case .item(let item, _, _): walk(item.inlines)
            case .inline(.emphasis(let inlines)), .inline(.strong(let inlines)), .inline(.link(_, let inlines)):
                walk(inlines)
            case .inline(.text), .inline(.code), .inline(.term): break
            }
        }
        leave(node)
    }
}

/// A visitor made of closures, for consumers that only look at some nodes.
public struct DocumentVisit: DocumentVisitor {
    private let onEnter: (DocumentNode) -> Bool
    private let onLeave: (DocumentNode) -> Void

    /// A visitor that calls `enter` and `leave` (by default: descend, do nothing).
    public init(
        enter: @escaping (DocumentNode) -> Bool = { _ in true }, leave: @escaping (DocumentNode) -> Void = { _ in }
    ) {
        onEnter = enter
        onLeave = leave
    }

    public mutating func enter(_ node: DocumentNode) -> Bool { onEnter(node) }
    public mutating func leave(_ node: DocumentNode) { onLeave(node) }
}
