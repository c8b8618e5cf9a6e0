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
        let caption = (listing.kind == .test ? strings["lesson.test"] + " " : "") + listing.caption
        let code = listing.visibleLines.map(\.code).joined(separator: "\n")
        let body = styled ? Highlighter.ansi(code) : code
        return style("┌ " + caption, "2") + "\n"
            + body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { style("│ ", "2") + $0 }.joined(separator: "\n")
    }

    /// A prose block wrapped once; a note's blocks are indented under its label, each list
    /// item under its bullet or number.
    private func prose(_ block: Block) -> String {
        // The lines of the note being rendered, innermost last; the outermost holds the block's.
        var parts: [[String]] = [[]]
        var indent = ""
        var visit = DocumentVisit(
            enter: { node in
                switch node {
                case .block(.paragraph(let inlines, _)):
                    parts[parts.count - 1].append(wrap(text(inlines), first: indent, rest: indent))
                case .block(.heading(let inlines, _)):
                    parts[parts.count - 1].append(indent + style(text(inlines), "1;4"))
                case .item(let item, let number, let ordered):
                    parts[parts.count - 1].append(
                        wrap(
                            text(item.inlines), first: indent + (ordered ? "\(number). " : "• "),
                            rest: indent + (ordered ? "   " : "  ")))
                case .block(.list): return true
                case .block(.note(let kind, _, _)):
                    parts.append([indent + style(strings["note.\(kind)"], "1;36")])
                    indent += "  "
                    return true
                case .block(.listing), .block(.output): parts[parts.count - 1].append("")
                case .inline: break
                }
                return false
            },
            leave: { node in
                guard case .block(.note) = node else { return }
                indent.removeLast(2)
                let note = parts.removeLast()
                parts[parts.count - 1].append(note[0] + "\n" + note.dropFirst().joined(separator: "\n"))
            })
        visit.walk([block])
        return parts[0].joined(separator: "\n")
    }

    /// Inline text on one line (`wrap` breaks it), the prose's spaces set by the language's
    /// typography, so that a one-letter Polish word or a French colon stays with its neighbour.
    private func text(_ inlines: [Inline]) -> String {
        // The text of the markup being rendered, innermost last.
        var parts = [""]
        var visit = DocumentVisit(
            enter: { node in
                switch node {
                case .inline(.text(let text)): parts[parts.count - 1] += text
                case .inline(.term(let text)): parts[parts.count - 1] += text
                case .inline(.code(let code)): parts[parts.count - 1] += style(code, "36")
                case .inline(.emphasis), .inline(.strong), .inline(.link): parts.append("")
                case .block, .item: break
                }
                return true
            },
            leave: { node in
                let inner: String
                switch node {
                case .inline(.emphasis): inner = style(parts.removeLast(), "3")
                case .inline(.strong): inner = style(parts.removeLast(), "1")
                case .inline(.link(let href, _)): inner = parts.removeLast() + " (" + style(href, "4") + ")"
                default: return
                }
                parts[parts.count - 1] += inner
            })
        visit.walk(strings.typography.apply(to: inlines))
        return parts[0]
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
