import StepwiseModel
import StepwiseSyntax
import SwiftSyntax

/// Compares a translated listing's code with the source language's, token by token.
///
/// Comments are trivia to Swift's parser, so translating them changes nothing here. The
/// contents of string literals may differ too: they are the program's words to its user.
/// Anything else (an identifier, a keyword, a type, an operator) must stay as it is.
enum CodeComparison {
    /// How a translated listing's code relates to the source's.
    enum Outcome: Equatable {
        /// The same tokens, string literals included.
        case same
        /// The same tokens, but some string literals say other things.
        case translatedLiterals
        /// A token differs: the translation changed code.
        case changed(Diagnostic)
    }

    /// Compares the code of `translation` with `source`'s; an outcome that is not a change
    /// depends only on the two texts, and is kept in `memo`.
    static func compare(_ translation: Listing, with source: Listing, sourceLanguage: String, memo: ParseMemo? = nil)
        -> Outcome
    {
        let texts = source.code + "\u{0}" + translation.code
        switch memo?.cached("code-comparison", for: texts) as String? {
        case "same": return .same
        case "literals": return .translatedLiterals
        default: break
        }
        let outcome = compareTokens(of: translation, with: source, sourceLanguage: sourceLanguage, memo: memo)
        switch outcome {
        case .same: memo?.store("same", "code-comparison", for: texts)
        case .translatedLiterals: memo?.store("literals", "code-comparison", for: texts)
        case .changed: break
        }
        return outcome
    }

    private static func compareTokens(
        of translation: Listing, with source: Listing, sourceLanguage: String, memo: ParseMemo?
    ) -> Outcome {
        // The text of string literals is compared apart from the code, so a translation may
        // move words around an interpolation ("Retard de \(text)" for "\(text) Verspätung");
        // the interpolations themselves are code and must stay.
        let (translated, translatedText) = split(tokens(of: translation, memo: memo))
        let (original, originalText) = split(tokens(of: source, memo: memo))
        for index in 0..<max(translated.count, original.count) {
            let ours = index < translated.count ? translated[index] : nil
            let theirs = index < original.count ? original[index] : nil
            if let ours, let theirs, ours.kind == theirs.kind { continue }
            return .changed(difference(ours, theirs, in: translation, source: source, sourceLanguage: sourceLanguage))
        }
        return translatedText == originalText ? .same : .translatedLiterals
    }

    /// Code tokens, and the text of the string literals' segments.
    private static func split(_ tokens: [Token]) -> (code: [Token], literalText: [String]) {
        var code: [Token] = []
        var text: [String] = []
        for token in tokens {
            if token.isStringText { text.append(token.text) } else { code.append(token) }
        }
        return (code, text)
    }

    private struct Token {
        var kind: TokenKind
        var text: String
        var location: StepwiseModel.SourceLocation
        /// Whether a translation may change it (`TranslatableText`).
        var isStringText: Bool
    }

    private static func tokens(of listing: Listing, memo: ParseMemo?) -> [Token] {
        let tree = ListingSyntax.tree(listing.code, memo: memo)
        let converter = SourceLocationConverter(fileName: listing.location.file, tree: tree)
        return tree.tokens(viewMode: .sourceAccurate).compactMap { token -> Token? in
            if token.tokenKind == .endOfFile { return nil }
            let position = converter.location(for: token.positionAfterSkippingLeadingTrivia)
            return Token(
                kind: token.tokenKind, text: token.text, location: location(in: listing, position),
                isStringText: TranslatableText.isStringText(token))
        }
    }

    /// The position of a token in the XML file, from its line and (UTF-8) column in the listing.
    private static func location(in listing: Listing, _ position: SwiftSyntax.SourceLocation)
        -> StepwiseModel.SourceLocation
    {
        guard position.line >= 1, position.line <= listing.lines.count else { return listing.location }
        let line = listing.lines[position.line - 1]
        let column = StepwiseModel.SourceLocation.column(ofUTF8Column: position.column, in: line.code)
        return StepwiseModel.SourceLocation(
            file: line.location.file, line: line.location.line, column: line.location.column + column - 1)
    }

    private static func difference(
        _ ours: Token?, _ theirs: Token?, in translation: Listing, source: Listing, sourceLanguage: String
    ) -> Diagnostic {
        let message: String
        switch (ours, theirs) {
        case (let ours?, let theirs?):
            message = "code differs from the \(sourceLanguage) listing: '\(ours.text)' where it has '\(theirs.text)'"
        case (let ours?, nil):
            message = "code differs from the \(sourceLanguage) listing: '\(ours.text)' where the listing has ended"
        case (nil, let theirs?):
            message = "code differs from the \(sourceLanguage) listing: the listing ends where it has '\(theirs.text)'"
        case (nil, nil):
            message = "code differs from the \(sourceLanguage) listing"
        }
        return .error(
            message + " (translate comments and strings only)",
            at: ours?.location ?? translation.lines.last?.location ?? translation.location,
            notes: [.note("listing '\(source.id)' in \(sourceLanguage)", at: theirs?.location ?? source.location)])
    }
}
