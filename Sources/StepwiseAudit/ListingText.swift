import StepwiseModel
import StepwiseSyntax
import SwiftSyntax

/// The translatable text of a listing: its comments and the text of its string literals, in
/// the order they appear, each with its place in the listing.
public struct ListingText: Sendable, Hashable {
    /// One comment or string-literal segment.
    public struct Span: Sendable, Hashable, Codable {
        /// Whether it is a comment or a string literal's text.
        public enum Kind: String, Sendable, Hashable, Codable { case comment, string }
        /// Comment or string.
        public var kind: Kind
        /// The text: a comment without its `//`, `///` or `/* */` and surrounding spaces; a string
        /// literal's segment as written in the code (escapes included).
        public var text: String
        /// The line in the listing (0-based index into `Listing.lines`).
        public var line: Int
        /// The UTF-8 offset in that line's code where `text` starts.
        public var utf8Start: Int
        /// For a string's segment, which of the listing's string literals it belongs to (0 for the
        /// first, in order); a multi-line literal has one segment per line. Nil for a comment.
        public var literal: Int? = nil
    }

    /// The pieces in source order.
    public var pieces: [Span]

    /// Reads the comments and string literals of `listing`, or takes them from `memo`.
    public init(_ listing: Listing, memo: ParseMemo? = nil) {
        if let memo {
            self.init(pieces: memo.value("listing-text-2", for: listing.code) { Self.pieces(of: listing, memo: memo) })
        } else {
            self.init(pieces: Self.pieces(of: listing, memo: nil))
        }
    }

    private init(pieces: [Span]) {
        self.pieces = pieces
    }

    /// The comments and string literals of `listing`, read from its syntax tree (`memo`'s, when given).
    private static func pieces(of listing: Listing, memo: ParseMemo?) -> [Span] {
        let code = listing.code
        let tree = ListingSyntax.tree(code, memo: memo)
        let converter = SourceLocationConverter(fileName: "listing.swift", tree: tree)
        var pieces: [Span] = []
        var literals: [SyntaxIdentifier: Int] = [:]
        func add(_ kind: Span.Kind, _ text: Substring, at position: AbsolutePosition, literal: Int? = nil) {
            let location = converter.location(for: position)
            pieces.append(
                Span(
                    kind: kind, text: String(text), line: location.line - 1, utf8Start: location.column - 1,
                    literal: literal))
        }
        func literal(of token: TokenSyntax) -> Int? {
            guard let expression = token.ancestorOrSelf(mapping: { $0.as(StringLiteralExprSyntax.self) }) else {
                return nil
            }
            if let number = literals[expression.id] { return number }
            literals[expression.id] = literals.count
            return literals.count - 1
        }
        for token in tree.tokens(viewMode: .sourceAccurate) {
            var position = token.position
            for piece in token.leadingTrivia {
                if let comment = TranslatableText.comment(piece) {
                    add(.comment, comment.text, at: position.advanced(by: comment.offset))
                }
                position += piece.sourceLength
            }
            if TranslatableText.isStringText(token), !token.text.isEmpty {
                add(
                    .string, Substring(token.text), at: token.positionAfterSkippingLeadingTrivia,
                    literal: literal(of: token))
            }
            position = token.endPositionBeforeTrailingTrivia
            for piece in token.trailingTrivia {
                if let comment = TranslatableText.comment(piece) {
                    add(.comment, comment.text, at: position.advanced(by: comment.offset))
                }
                position += piece.sourceLength
            }
        }
        return pieces
    }

    /// Whether `other`'s pieces pair with these one by one: the same kinds in the same order, and
    /// each string piece in the string literal of the same number. A translation whose literal has
    /// a line more (a plural form the source's language lacks) does not line up, so no piece after
    /// it is paired with the wrong one.
    public func linesUp(with other: ListingText) -> Bool {
        pieces.count == other.pieces.count
            && zip(pieces, other.pieces).allSatisfy { $0.kind == $1.kind && $0.literal == $1.literal }
    }

    /// The canonical text: one piece per line, comments marked `//`, strings quoted.
    public var canonical: String {
        pieces.map { $0.kind == .comment ? "// " + $0.text : "\"" + $0.text + "\"" }.joined(separator: "\n")
    }
}
