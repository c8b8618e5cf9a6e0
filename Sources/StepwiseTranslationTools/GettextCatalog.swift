import StepwiseModel

/// gettext's PO format, as msgfmt, msgmerge, Poedit and Weblate read it: a header and entries,
/// each with its comments, flags, context, message and translation. Strings are C-escaped and
/// wrapped after each `\n`; reading keeps each entry's line, for errors at the file's line.
public struct GettextCatalog: Sendable, Equatable {
    /// A header field (`Language: fr`).
    public struct Field: Sendable, Equatable {
        /// The field's name.
        public var name: String
        /// Its value.
        public var value: String
        /// Where the header names it, when read.
        public var location: SourceLocation?

        /// Creates a field.
        public init(_ name: String, _ value: String, location: SourceLocation? = nil) {
            (self.name, self.value, self.location) = (name, value, location)
        }
    }

    /// One message: its context, text and translation, with the comments tools show.
    public struct Entry: Sendable, Equatable {
        /// `msgctxt`.
        public var context: String?
        /// `msgid`: the source text.
        public var id: String
        /// `msgstr`: the translation; empty when untranslated.
        public var string: String
        /// `#.` lines: notes for translators.
        public var comments: [String] = []
        /// `#:` references (`file:line`).
        public var references: [String] = []
        /// `#,` flags (`fuzzy`).
        public var flags: [String] = []
        /// `#| msgid`: the source text the translation was made from (gettext's `--previous`).
        public var previousID: String?
        /// Where the entry's first keyword (`msgctxt` or `msgid`) is, when read.
        public var location: SourceLocation?
        /// Where its `msgstr` is, when read.
        public var stringLocation: SourceLocation?

        /// Creates an entry.
        public init(context: String?, id: String, string: String = "") {
            (self.context, self.id, self.string) = (context, id, string)
        }

        /// Whether the entry is marked `fuzzy`: its translation needs review.
        public var isFuzzy: Bool { flags.contains("fuzzy") }
    }

    /// The header's fields, in order.
    public var header: [Field]
    /// The entries, in order; obsolete ones (`#~`) are not read.
    public var entries: [Entry]

    /// Creates a catalog.
    public init(header: [Field], entries: [Entry]) {
        (self.header, self.entries) = (header, entries)
    }

    /// The header field `name`, if there is one.
    public func field(_ name: String) -> Field? { header.first { $0.name == name } }

    /// The `Plural-Forms` of `language`, by gettext's rules (the languages Stepwise's
    /// tutorials use and their neighbours); nil for a language not listed here.
    public static func pluralForms(of language: String) -> String? {
        switch language.split(separator: "-").first.map(String.init) ?? language {
        case "de", "en", "es", "it", "nl", "pt", "sv", "da", "nb", "fi", "el", "hu":
            "nplurals=2; plural=(n != 1);"
        case "fr": "nplurals=2; plural=(n > 1);"
        case "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
        case "cs", "sk": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"
        case "ru", "uk":
            "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
        case "ja", "ko", "zh", "vi", "th": "nplurals=1; plural=0;"
        default: nil
        }
    }

    // MARK: Writing

    /// The catalog as a PO file.
    public var serialized: String {
        var lines =
            Self.string("msgid", "") + Self.string("msgstr", header.map { "\($0.name): \($0.value)\n" }.joined())
        for entry in entries {
            lines.append("")
            lines += entry.comments.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map {
                $0.isEmpty ? "#." : "#. \($0)"
            }
            if !entry.references.isEmpty { lines.append("#: " + entry.references.joined(separator: " ")) }
            if !entry.flags.isEmpty { lines.append("#, " + entry.flags.joined(separator: ", ")) }
            if let previous = entry.previousID { lines += Self.string("msgid", previous, prefix: "#| ") }
            if let context = entry.context { lines += Self.string("msgctxt", context) }
            lines += Self.string("msgid", entry.id) + Self.string("msgstr", entry.string)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `keyword "text"`, or for text of several lines `keyword ""` and a line per line of text.
    private static func string(_ keyword: String, _ text: String, prefix: String = "") -> [String] {
        var pieces: [String] = []
        var current = ""
        for character in text {
            current += escape(character)
            if character == "\n" {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        guard pieces.count > 1 else { return ["\(prefix)\(keyword) \"\(pieces.first ?? "")\""] }
        return ["\(prefix)\(keyword) \"\""] + pieces.map { "\(prefix)\"\($0)\"" }
    }

    private static func escape(_ character: Character) -> String {
        switch character {
        case "\\": "\\\\"
        case "\"": "\\\""
        case "\n": "\\n"
        case "\t": "\\t"
        case "\r": "\\r"
        default:
            if character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
                scalar.value < 0x20 || scalar.value == 0x7F
            {
                "\\" + String(repeating: "0", count: 3 - String(scalar.value, radix: 8).count)
                    + String(scalar.value, radix: 8)
            } else {
                String(character)
            }
        }
    }
}

// MARK: Reading

extension GettextCatalog {
    /// Reads `text`, the contents of the PO file `file`. Anything that is not PO, plural
    /// entries (Stepwise writes none) and an entry whose context and text repeat another's
    /// are refused at their line and column.
    public static func read(file: String, text: String) throws(DiagnosticError) -> GettextCatalog {
        var reader = Reader(file: file)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            try reader.read(line.hasSuffix("\r") ? line.dropLast() : line, number: index + 1)
        }
        try reader.finishEntry()
        guard let header = reader.header else {
            throw DiagnosticError(
                .error(
                    "no header entry (msgid \"\"): this is not a PO file from Stepwise",
                    at: SourceLocation(file: file, line: 1)))
        }
        return GettextCatalog(header: header, entries: reader.entries)
    }

    /// The state of reading a PO file line by line.
    private struct Reader {
        let file: String
        var header: [Field]?
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        /// The entry being read, its keywords' strings so far and the one continuation lines add to.
        var entry = Entry(context: nil, id: "")
        var strings: [String: (text: String, location: SourceLocation)] = [:]
        var last: String?
        /// The keyword of the last `#|` line with one.
        var previous: String?
        var started = false

        init(file: String) { self.file = file }

        mutating func read(_ line: Substring, number: Int) throws(DiagnosticError) {
            let location = SourceLocation(file: file, line: number)
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            let column = line.count - trimmed.count + 1
            if trimmed.isEmpty || trimmed.hasPrefix("#~") { return try finishEntry() }
            if trimmed.hasPrefix("#") {
                // A comment after a msgstr begins the next entry.
                if strings["msgstr"] != nil { try finishEntry() }
                started = true
                let marker = trimmed.dropFirst().first
                let body = String(trimmed.dropFirst(2).drop { $0 == " " })
                switch marker {
                case ".": entry.comments.append(body)
                case ":": entry.references += body.split(separator: " ").map(String.init)
                case ",": entry.flags += body.split(separator: ",").map { $0.trimmingSpaces }
                case "|":
                    // gettext's previous msgctxt and msgid, continued on `#| "…"` lines.
                    let start = location.advanced(byLines: 0, column: column + 3)
                    if body.hasPrefix("\"") {
                        let text = try unquote(Substring(body), at: location, column: start.column)
                        if previous == "msgid" { entry.previousID? += text }
                    } else {
                        let (keyword, text) = try keywordAndString(Substring(body), at: start)
                        previous = keyword
                        if keyword == "msgid" { entry.previousID = text }
                    }
                default: break  // a translator's comment
                }
                return
            }
            if trimmed.hasPrefix("\"") {
                guard let keyword = last, let current = strings[keyword] else {
                    throw DiagnosticError(
                        .error(
                            "a continued string with no keyword before it",
                            at: location.advanced(byLines: 0, column: column)))
                }
                strings[keyword]!.text = current.text + (try unquote(trimmed, at: location, column: column))
                return
            }
            let (keyword, text) = try keywordAndString(trimmed, at: location.advanced(byLines: 0, column: column))
            if strings["msgstr"] != nil { try finishEntry() }
            guard ["msgctxt", "msgid", "msgstr"].contains(keyword) else {
                throw DiagnosticError(
                    .error(
                        keyword.hasPrefix("msgid_plural") || keyword.hasPrefix("msgstr[")
                            ? "\(keyword): Stepwise's entries have no plural forms"
                            : "'\(keyword)' is not a keyword of a PO entry",
                        at: location.advanced(byLines: 0, column: column)))
            }
            guard strings[keyword] == nil else {
                throw DiagnosticError(
                    .error("a second \(keyword) in one entry", at: location.advanced(byLines: 0, column: column)))
            }
            started = true
            strings[keyword] = (text, location.advanced(byLines: 0, column: column))
            last = keyword
        }

        /// Ends the entry being read: checks that it has its msgid and msgstr, and keeps it.
        mutating func finishEntry() throws(DiagnosticError) {
            defer {
                (entry, strings, last, previous, started) = (Entry(context: nil, id: ""), [:], nil, nil, false)
            }
            guard started else { return }
            guard let id = strings["msgid"], let string = strings["msgstr"] else {
                let location = strings.values.map(\.location).min { $0.line < $1.line }
                throw DiagnosticError(
                    .error(
                        "an entry needs a msgid and a msgstr",
                        at: location ?? SourceLocation(file: file, line: 1)))
            }
            entry.id = id.text
            entry.string = string.text
            entry.context = strings["msgctxt"]?.text
            entry.location = strings["msgctxt"]?.location ?? id.location
            entry.stringLocation = string.location
            if entry.context == nil, entry.id.isEmpty {
                guard header == nil else {
                    throw DiagnosticError(.error("a second header entry", at: id.location))
                }
                header = try fields(of: string.text, at: string.location)
                return
            }
            let key = (entry.context ?? "") + "\u{4}" + entry.id
            if let first = seen[key] {
                throw DiagnosticError(
                    .error(
                        "this entry repeats the one at line \(first) (same msgctxt and msgid)", at: entry.location!))
            }
            seen[key] = entry.location!.line
            entries.append(entry)
        }

        /// The header entry's `Name: value` lines, each at the line of the file it starts on
        /// when the header is written a line per field.
        private func fields(of text: String, at location: SourceLocation) throws(DiagnosticError) -> [Field] {
            try text.split(separator: "\n").enumerated().map { index, line throws(DiagnosticError) -> Field in
                guard let colon = line.firstIndex(of: ":") else {
                    throw DiagnosticError(.error("a header field is 'Name: value', not '\(line)'", at: location))
                }
                return Field(
                    String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces,
                    location: location.advanced(byLines: index + 1))
            }
        }

        /// A keyword and its quoted string: `msgid "text"`.
        private func keywordAndString(_ line: Substring, at location: SourceLocation) throws(DiagnosticError) -> (
            String, String
        ) {
            let keyword = line.prefix { $0 != " " && $0 != "\t" && $0 != "\"" }
            let rest = line.dropFirst(keyword.count)
            let quoted = rest.drop { $0 == " " || $0 == "\t" }
            guard !keyword.isEmpty, quoted.hasPrefix("\"") else {
                throw DiagnosticError(.error("cannot read this line as PO: '\(line)'", at: location))
            }
            let column = location.column + keyword.count + (rest.count - quoted.count)
            return (String(keyword), try unquote(quoted, at: location, column: column))
        }

        /// The text of a C string literal `"…"` that starts at `column`.
        private func unquote(_ quoted: Substring, at location: SourceLocation, column: Int) throws(DiagnosticError)
            -> String
        {
            let body = quoted.dropFirst()
            var trimmed = body
            while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
            func fail(_ message: String, at offset: Int) -> DiagnosticError {
                DiagnosticError(.error(message, at: location.advanced(byLines: 0, column: column + offset)))
            }
            guard trimmed.hasSuffix("\""), trimmed.count >= 1 else { throw fail("the string is never closed", at: 0) }
            let characters = Array(trimmed.dropLast())
            var text = ""
            var index = 0
            while index < characters.count {
                let character = characters[index]
                index += 1
                if character == "\"" { throw fail("a quote inside a string is written \\\"", at: index) }
                guard character == "\\" else {
                    text.append(character)
                    continue
                }
                guard index < characters.count else { throw fail("a backslash ends the string", at: index) }
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "a": text.append("\u{7}")
                case "b": text.append("\u{8}")
                case "f": text.append("\u{C}")
                case "v": text.append("\u{B}")
                case "\\", "\"", "'", "?": text.append(escaped)
                case "0"..."7":
                    var digits = String(escaped)
                    while digits.count < 3, index < characters.count, ("0"..."7").contains(characters[index]) {
                        digits.append(characters[index])
                        index += 1
                    }
                    text.unicodeScalars.append(Unicode.Scalar(UInt8(UInt32(digits, radix: 8)! & 0xFF)))
                default: throw fail("unknown escape '\\\(escaped)'", at: index - 1)
                }
            }
            return text
        }
    }
}

extension Substring {
    /// The text without spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
