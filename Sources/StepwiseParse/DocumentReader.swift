import Foundation
import StepwiseModel

/// Reads `Content/<tutorial>/<lang>.xml` into a `TutorialDocument`.
struct DocumentReader {
    let schema: RelaxNGSchema

    func read(file: String, language: String, manifest: Manifest) throws(DiagnosticError) -> TutorialDocument {
        try read(
            file: file, contents: try FileAccess.contents(of: file, inTutorial: manifest.directory), language: language,
            manifest: manifest)
    }

    func read(file: String, contents: Data, language: String, manifest: Manifest) throws(DiagnosticError)
        -> TutorialDocument
    {
        let tree = try XMLTree(file: file, contents: contents)
        try tree.validate(against: schema)
        var reading = Reading(tree: tree)
        let root = tree.root!
        if root.attribute("id") != manifest.id {
            reading.problems.append(
                .error(
                    "tutorial id '\(root.attribute("id")!)' does not match the manifest's '\(manifest.id)'",
                    at: root.location(ofAttribute: "id")))
        }
        let declared = root.attribute("lang", namespace: Namespace.xml)!
        if declared != language {
            reading.problems.append(
                .error(
                    "xml:lang is '\(declared)' but the file is the '\(language)' version",
                    at: root.location(ofAttribute: "xml:lang")))
        }
        let intro = root.element("intro").map { reading.blocks(in: $0) } ?? []
        let steps = root.elements.filter { $0.name == "step" }.map { reading.step($0) }
        if !reading.problems.isEmpty { throw DiagnosticError(reading.problems) }
        return TutorialDocument(
            tutorialID: manifest.id, language: language, file: file, intro: intro, steps: steps,
            text: String(decoding: contents, as: UTF8.self))
    }
}

/// Reads inline markup in the tutorial format (`Use <code>bind</code> <em>once</em>.`) the way
/// a document's paragraphs are read: the same elements, white space and link rules.
public enum InlineMarkupReader {
    /// The inlines of `markup`; a problem is reported at `location`.
    public static func inlines(_ markup: String, at location: SourceLocation) throws(DiagnosticError) -> [Inline] {
        let fragment = "<p xmlns:its=\"\(Namespace.its)\">\(markup)</p>"
        let tree: XMLTree
        do {
            tree = try XMLTree(file: location.file, contents: Data(fragment.utf8))
        } catch {
            throw DiagnosticError(
                .error("not well-formed inline markup: \(error.diagnostics.first?.message ?? "")", at: location))
        }
        var reading = Reading(tree: tree)
        let inlines = reading.inlines(in: tree.root!)
        if let problem = reading.problems.first { throw DiagnosticError(.error(problem.message, at: location)) }
        return inlines
    }
}

/// The state of reading one document: the problems found so far and the ids seen.
private struct Reading {
    let tree: XMLTree
    var problems: [Diagnostic] = []
    var ids: [String: [String: SourceLocation]] = [:]

    init(tree: XMLTree) { self.tree = tree }

    mutating func step(_ element: XMLElement) -> Step {
        let id = claim(element, kind: "step")
        let title = element.element("title")!
        return Step(
            id: id, location: element.location, title: inlines(in: title), titleTranslation: translation(title),
            blocks: blocks(in: element))
    }

    mutating func blocks(in parent: XMLElement) -> [Block] {
        parent.elements.compactMap { block($0) }
    }

    mutating func block(_ element: XMLElement) -> Block? {
        switch element.name {
        case "p": return .paragraph(inlines(in: element), translation(element))
        case "heading": return .heading(inlines(in: element), translation(element))
        case "ul", "ol":
            return .list(
                ordered: element.name == "ol",
                items: element.elements.map { ListItem(inlines(in: $0), translation: translation($0)) },
                translation(element))
        case "note":
            return .note(kind: element.attribute("type")!, blocks(in: element), translation(element))
        case "listing": return .listing(listing(element))
        case "output":
            let id = claim(element, kind: "output")
            let (lines, start) = codeLines(of: element)
            return .output(
                ExpectedOutput(
                    id: id, text: lines.map(\.text).joined(separator: "\n"), location: start,
                    elementLocation: element.location))
        default: return nil
        }
    }

    mutating func listing(_ element: XMLElement) -> Listing {
        let id = claim(element, kind: "listing")
        let file = element.attribute("file")!
        if let problem = PathRules.problem(withRelativePath: file) {
            problems.append(.error("listing file '\(file)' \(problem)", at: element.location(ofAttribute: "file")))
        }
        let (lines, _) = codeLines(of: element)
        let code = lines.map { line in
            let hidden = line.text == "#" || line.text.hasPrefix("# ")
            let stripped = hidden ? String(line.text.dropFirst(2)) : line.text
            let location = hidden ? line.location.advanced(byLines: 0, column: line.location.column + 2) : line.location
            return excused(CodeLine(code: stripped, isHidden: hidden, location: location))
        }
        if code.isEmpty {
            problems.append(.error("listing '\(id)' holds no code", at: element.location))
        }
        return Listing(
            id: id, kind: element.attribute("kind").flatMap(Listing.Kind.init(rawValue:)) ?? .source, file: file,
            region: element.attribute("region"), location: element.location, lines: code,
            translation: translation(element))
    }

    /// `line` without the `// stepwise: not run: <reason>` marker that ends it, with its
    /// `Excuse`; an error at a marker that gives no reason, names no `not run`, or ends a line
    /// without code.
    mutating func excused(_ line: CodeLine) -> CodeLine {
        guard let marker = Excuse.marker(in: line.code) else { return line }
        let location = line.location.advanced(byLines: 0, column: line.location.column + marker.offset)
        let form = "`\(Excuse.prefix) \(Excuse.notRun): <why the line never runs>`"
        guard marker.isNotRun else {
            problems.append(.error("unknown Stepwise marker: the one marker is \(form)", at: location))
            return line
        }
        guard let reason = marker.reason else {
            problems.append(.error("a 'not run' marker needs its reason: \(form)", at: location))
            return line
        }
        guard !marker.code.trimmingWhitespace().isEmpty else {
            problems.append(
                .error("a 'not run' marker excuses the code on its own line, and this line has none", at: location))
            return line
        }
        var excused = line
        excused.code = marker.code
        excused.excuse = Excuse(reason: reason, location: location)
        return excused
    }

    /// The element's text as lines, with the location of each: a leading line break and
    /// trailing blank lines dropped, common indentation removed.
    func codeLines(of element: XMLElement) -> ([(text: String, location: SourceLocation)], SourceLocation) {
        var raw = ""
        var startLine = element.line
        var startColumn = 1
        for child in element.children {
            guard case .text(let text, let line, let isCDATA) = child else { continue }
            if raw.isEmpty {
                startLine = line
                startColumn = isCDATA ? tree.column(of: "<![CDATA[", onLine: line) + 9 : 1
            }
            raw += text
        }
        var lines = raw.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let first = lines.first, first.trimmingWhitespace().isEmpty {
            lines.removeFirst()
            startLine += 1
            startColumn = 1
        }
        while let last = lines.last, last.trimmingWhitespace().isEmpty { lines.removeLast() }
        let indent =
            lines.dropFirst(startColumn == 1 ? 0 : 1).filter { !$0.trimmingWhitespace().isEmpty }
            .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        let result = lines.enumerated().map { index, line in
            let column = index == 0 ? startColumn : 1
            let dropped = (index == 0 && startColumn != 1) ? 0 : min(indent, line.prefix(while: { $0 == " " }).count)
            return (
                text: String(line.dropFirst(dropped)),
                location: SourceLocation(file: tree.file, line: startLine + index, column: column + dropped)
            )
        }
        return (result, SourceLocation(file: tree.file, line: startLine, column: startColumn))
    }

    mutating func inlines(in element: XMLElement) -> [Inline] {
        var result: [Inline] = []
        for child in element.children {
            switch child {
            case .text(let text, _, _): result.append(.text(text))
            case .element(let inner):
                switch inner.name {
                case "code": result.append(.code(inner.text))
                case "term": result.append(.term(inner.text.collapsingWhitespace()))
                case "em": result.append(.emphasis(inlines(in: inner)))
                case "strong": result.append(.strong(inlines(in: inner)))
                case "link":
                    let href = inner.attribute("href")!
                    if !LinkRules.isAllowed(href) {
                        problems.append(
                            .error(
                                "link target '\(href)' is neither a web address (https://…) nor a relative path",
                                at: inner.location(ofAttribute: "href")))
                    }
                    result.append(.link(href: href, inlines(in: inner)))
                default: break
                }
            }
        }
        return Self.normalizingWhitespace(result)
    }

    /// Folds white space in text runs the way a browser would, and trims the block's ends.
    static func normalizingWhitespace(_ inlines: [Inline]) -> [Inline] {
        var result = inlines.map { inline -> Inline in
            if case .text(let text) = inline { return .text(text.foldingWhitespace()) }
            return inline
        }
        if case .text(let first)? = result.first {
            result[0] = .text(String(first.drop(while: { $0 == " " })))
        }
        if case .text(let last)? = result.last {
            result[result.count - 1] = .text(String(last.reversed().drop(while: { $0 == " " }).reversed()))
        }
        return result.filter { $0 != .text("") }
    }

    func translation(_ element: XMLElement) -> TranslationMetadata {
        TranslationMetadata(
            translate: element.attribute("translate", namespace: Namespace.its) != "no",
            note: element.attribute("locNote", namespace: Namespace.its), location: element.location,
            sourceHash: element.attribute("src-hash"), isCopy: element.attribute("origin") == "copy")
    }

    /// Records `element`'s id, reporting it when another element of the same kind has it.
    mutating func claim(_ element: XMLElement, kind: String) -> String {
        let id = element.attribute("id")!
        let location = element.location(ofAttribute: "id")
        if let earlier = ids[kind, default: [:]][id] {
            problems.append(
                .error("duplicate \(kind) id '\(id)'", at: location, notes: [.note("first used here", at: earlier)]))
        } else {
            ids[kind, default: [:]][id] = location
        }
        return id
    }
}

/// Which link targets a source may use.
enum LinkRules {
    /// Web addresses, fragments and relative paths; no `javascript:`, `data:` or other schemes.
    static func isAllowed(_ href: String) -> Bool {
        if href.hasPrefix("https://") || href.hasPrefix("http://") { return true }
        guard let colon = href.firstIndex(of: ":") else { return !href.isEmpty }
        let beforeColon = href[..<colon]
        return beforeColon.contains("/") || beforeColon.contains("#") || beforeColon.contains("?")
    }
}
