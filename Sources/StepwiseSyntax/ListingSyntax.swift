import Foundation
import SwiftParser
import SwiftSyntax

/// The one place a listing's text is parsed: each distinct text once per run, whichever
/// stage asks first (check compares tokens, audit reads comments and strings, render
/// highlights), the others reusing its tree.
public enum ListingSyntax {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var trees: [String: SourceFileSyntax] = [:]

    /// The syntax tree of `text`, parsed on first use.
    public static func tree(_ text: String) -> SourceFileSyntax {
        if let tree = lock.withLock({ trees[text] }) { return tree }
        let tree = Parser.parse(source: text)
        lock.withLock { trees[text] = tree }
        return tree
    }
}
