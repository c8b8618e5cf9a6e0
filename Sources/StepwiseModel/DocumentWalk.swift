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

/// How inline content is written as markup: what stands for each kind of text, and what
/// opens and closes each span (emphasis, strong text, a link). The HTML renderer and the
/// tutorial format's own XML differ only in these.
public struct InlineMarkupStyle {
    /// Plain text, escaped as the format needs.
    public var text: (String) -> String
    /// Inline code.
    public var code: (String) -> String
    /// A term kept as written.
    public var term: (String) -> String
    /// What opens a span (`.emphasis`, `.strong`, `.link`).
    public var open: (Inline) -> String
    /// What closes it.
    public var close: (Inline) -> String

    /// Creates a style.
    public init(
        text: @escaping (String) -> String, code: @escaping (String) -> String, term: @escaping (String) -> String,
        open: @escaping (Inline) -> String, close: @escaping (Inline) -> String
    ) {
        self.text = text
        self.code = code
        self.term = term
        self.open = open
        self.close = close
    }
}

extension Array where Element == Inline {
    /// The inlines written as markup in `style`.
    public func markup(_ style: InlineMarkupStyle) -> String {
        var markup = ""
        var visit = DocumentVisit(
            enter: { node in
                guard case .inline(let inline) = node else { return true }
                switch inline {
                case .text(let text): markup += style.text(text)
                case .code(let code): markup += style.code(code)
                case .term(let term): markup += style.term(term)
                case .emphasis, .strong, .link: markup += style.open(inline)
                }
                return true
            },
            leave: { node in
                guard case .inline(let inline) = node else { return }
                switch inline {
                case .emphasis, .strong, .link: markup += style.close(inline)
                case .text, .code, .term: break
                }
            })
        visit.walk(self)
        return markup
    }
}
