import StepwiseModel
import SwiftSyntax

/// The lines of a listing as line coverage reads them, decided by swift-syntax's tokens: which
/// lines hold code that can run, and which token each line begins with.
///
/// The coverage tools count a line by the region around it, so a comment inside a function
/// body, or the `}` that closes it, gets the body's count; those are not code here. Neither
/// are blank lines, comments, imports, declarations without a body (a protocol requirement, a
/// stored property without a value, an enum case, a type alias, a type's header: its members
/// are what runs) and lines of only closing brackets.
public struct CodeLines: Sendable, Equatable, Codable {
    /// For each line (index 0 is line 1): whether it holds code that can run.
    public var isCode: [Bool]
    /// For each line: the index (among the text's tokens) of the first token on it, or nil
    /// when no token is on it (a blank line, a comment).
    public var firstToken: [Int?]
    /// For each token, by index: the line it starts on, from 0.
    public var tokenLines: [Int]

    /// The lines of `listing` as compiled (hidden lines and region markers included): what
    /// `memo` keeps of its text (from this run or an earlier one), else read from its tree.
    public init(of listing: Listing, memo: ParseMemo?) {
        let text = listing.code
        let count = listing.lines.count
        let read = { CodeLines(ListingSyntax.tree(text, memo: memo), lineCount: count) }
        self = memo?.value("code-lines", for: text, compute: read) ?? read()
    }

    /// The lines of `tree`, parsed from a text of `lineCount` lines.
    public init(_ tree: SourceFileSyntax, lineCount: Int) {
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        var tokensOnLine = Array(repeating: [TokenSyntax](), count: lineCount)
        var firstToken = [Int?](repeating: nil, count: lineCount)
        var tokenLines: [Int] = []
        for token in tree.tokens(viewMode: .sourceAccurate) where token.tokenKind != .endOfFile {
            let start = converter.location(for: token.positionAfterSkippingLeadingTrivia).line - 1
            let end = converter.location(for: token.endPositionBeforeTrailingTrivia).line - 1
            for line in start...max(start, end) where line < lineCount {
                tokensOnLine[line].append(token)
                if firstToken[line] == nil { firstToken[line] = tokenLines.count }
            }
            tokenLines.append(start)
        }
        self.isCode = tokensOnLine.map { tokens in
            !tokens.isEmpty && !tokens.allSatisfy(Self.isClosingBracket) && !tokens.allSatisfy(Self.isInImport)
                && !tokens.allSatisfy(Self.isInDeclarationWithoutBody)
        }
        self.firstToken = firstToken
        self.tokenLines = tokenLines
    }

    private static func isClosingBracket(_ token: TokenSyntax) -> Bool {
        switch token.tokenKind {
        case .rightBrace, .rightParen, .rightSquare: true
        default: false
        }
    }

    private static func isInImport(_ token: TokenSyntax) -> Bool {
        token.ancestorOrSelf(mapping: { $0.as(ImportDeclSyntax.self) }) != nil
    }

    /// Whether the declaration nearest around `token` has no body of its own there: nothing in
    /// it runs (a type's header is not its members).
    private static func isInDeclarationWithoutBody(_ token: TokenSyntax) -> Bool {
        var node = token.parent
        while let current = node {
            if let function = current.as(FunctionDeclSyntax.self) { return function.body == nil }
            if let initializer = current.as(InitializerDeclSyntax.self) { return initializer.body == nil }
            if let accessor = current.as(AccessorDeclSyntax.self) { return accessor.body == nil }
            if let subscriptDecl = current.as(SubscriptDeclSyntax.self) {
                return subscriptDecl.accessorBlock.map(hasNoBody) ?? true
            }
            if let variable = current.as(VariableDeclSyntax.self) {
                return variable.bindings.allSatisfy {
                    $0.initializer == nil && ($0.accessorBlock.map(hasNoBody) ?? true)
                }
            }
            if current.is(AssociatedTypeDeclSyntax.self) || current.is(TypeAliasDeclSyntax.self)
                || current.is(EnumCaseDeclSyntax.self) || current.isProtocol(DeclGroupSyntax.self)
            {
                return true
            }
            // A statement, a closure or a member of a type: code of its own.
            if current.is(CodeBlockItemSyntax.self) || current.is(ClosureExprSyntax.self)
                || current.is(MemberBlockItemSyntax.self)
            {
                return false
            }
            node = current.parent
        }
        return false
    }

    /// Whether `block` only declares accessors (`{ get set }`, a protocol's requirement).
    private static func hasNoBody(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .accessors(let accessors): accessors.allSatisfy { $0.body == nil }
        case .getter: false
        }
    }
}
