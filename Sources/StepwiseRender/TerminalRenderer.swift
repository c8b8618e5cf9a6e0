import StepwiseModel

/// A step as text for a terminal: prose wrapped to a width, listings highlighted, with or
/// without ANSI styles.
public struct TerminalRenderer: Sendable {
    /// The column to wrap prose at.
    public var width: Int
    /// Whether to use ANSI styles.
    public var styled: Bool
    /// The interface words.
    public var strings: InterfaceStrings

    /// Creates a renderer.
    public init(width: Int = 80, styled: Bool, strings: InterfaceStrings) {
        self.width = width
        self.styled = styled
        self.strings = strings
    }

    /// The step's heading, prose and listings; expected outputs are left to the lesson,
    /// which shows the program's real output instead.
    public func render(_ step: Step, number: Int, count: Int) -> String {
        var parts = [
            style(strings.format("lesson.step", ["number": "\(number)", "count": "\(count)"]), "2"),
            style(text(step.title), "1"),
        ]
        for block in step.blocks {
            switch block {
            case .output: continue
            case .listing(let listing): parts.append(self.listing(listing))
            default: parts.append(prose(block))
            }
        }
        return parts.joined(separator: "\n\n")
    }

    /// A listing: a caption with its file, then its visible lines.
    public func listing(_ listing: Listing) -> String {
        let caption =
            (listing.kind == .test ? strings["lesson.test"] + ": " : "")
            + (listing.region.map { "\(listing.file) — \($0)" } ?? listing.file)
        let code = listing.visibleLines.map(\.code).joined(separator: "\n")
        let body = styled ? Highlighter.ansi(code) : code
        return style("┌ " + caption, "2") + "\n"
            + body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { style("│ ", "2") + $0 }.joined(separator: "\n")
    }

    /// A prose block wrapped once, every line after `indent`.
    private func prose(_ block: Block, indent: String = "") -> String {
        switch block {
        case .paragraph(let inlines, _): wrap(text(inlines), first: indent, rest: indent)
        case .heading(let inlines, _): indent + style(text(inlines), "1;4")
        case .list(let ordered, let items, _):
            items.enumerated().map { index, item in
                wrap(
                    text(item.inlines), first: indent + (ordered ? "\(index + 1). " : "• "),
                    rest: indent + (ordered ? "   " : "  "))
            }.joined(separator: "\n")
        case .note(let kind, let blocks, _):
            indent + style(strings["note.\(kind)"], "1;36") + "\n"
                + blocks.map { prose($0, indent: indent + "  ") }.joined(separator: "\n")
        case .listing, .output: ""
        }
    }

    /// Inline text on one line (`wrap` breaks it), the prose's spaces set by the language's
    /// typography, so that a one-letter Polish word or a French colon stays with its neighbour.
    private func text(_ inlines: [Inline]) -> String {
        let typography = Typography(language: strings.language)
        return inlines.map { inline in
            switch inline {
            case .text(let text): typography.apply(text)
            case .term(let text): text
            case .code(let code): style(code, "36")
            case .emphasis(let inner): style(text(inner), "3")
            case .strong(let inner): style(text(inner), "1")
            case .link(let href, let inner): text(inner) + " (" + style(href, "4") + ")"
            }
        }.joined()
    }

    private func style(_ text: String, _ codes: String) -> String {
        styled && !text.isEmpty ? "\u{1B}[\(codes)m\(text)\u{1B}[0m" : text
    }

    /// Wraps at `width` visible columns; ANSI escapes take no room.
    private func wrap(_ text: String, first: String = "", rest: String = "") -> String {
        var lines: [String] = []
        var line = first
        var visible = first.count
        for word in text.split(separator: " ") {
            let length = Self.visibleLength(word)
            if visible + length + 1 > width, visible > rest.count {
                lines.append(line)
                line = rest
                visible = rest.count
            }
            if visible > (lines.isEmpty ? first.count : rest.count) {
                line += " "
                visible += 1
            }
            line += word
            visible += length
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// `text` cut into screens of at most `rows` terminal rows each, for a terminal `columns`
    /// wide: a line longer than the terminal takes as many rows as it wraps to. A line is
    /// never split between two screens.
    public static func screens(of text: String, rows: Int, columns: Int) -> [String] {
        let rows = max(rows, 1)
        let columns = max(columns, 1)
        var screens: [String] = []
        var screen: [Substring] = []
        var used = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let height = max(1, (visibleLength(line) + columns - 1) / columns)
            if used + height > rows, !screen.isEmpty {
                screens.append(screen.joined(separator: "\n"))
                screen = []
                used = 0
            }
            screen.append(line)
            used += height
        }
        if !screen.isEmpty { screens.append(screen.joined(separator: "\n")) }
        return screens
    }

    private static func visibleLength(_ text: Substring) -> Int {
        var count = 0
        var inEscape = false
        for character in text {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if character == "m" { inEscape = false }
            } else {
                count += 1
            }
        }
        return count
    }
}
