import Foundation
import Testing

@testable import StepwiseModel
@testable import StepwiseRender
@testable import StepwiseTangle

/// Mustache binds names at run time, so a misspelled or renamed name would render as empty
/// text. These tests read every template and resolve each tag against the context type that
/// renders it, the way Mustache does: by `Mirror` over a sample of the type, looking up the
/// stack of sections. `Mirror` rather than the declarations (swift-syntax) because it is what
/// Mustache itself sees: stored properties only, a computed one never renders.
@Suite("Templates checked like code")
struct TemplateCheckTests {
    @Test func everyTagOfEveryTemplateNamesAFieldOfItsContext() throws {
        let check = try TemplateCheck.forSite()
        var problems: [String] = []
        for (folder, samples) in try TemplateSamples.all() {
            let names = try FileManager.default.contentsOfDirectory(atPath: templatesFolder + "/" + folder)
                .filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) }
            #expect(
                Set(names) == Set(samples.keys),
                "every template of Templates/\(folder) has a sample of its context here, and every sample a template")
            for (name, sample) in samples.sorted(by: { $0.key < $1.key }) {
                let text = try String(
                    contentsOfFile: templatesFolder + "/\(folder)/\(name).mustache", encoding: .utf8)
                problems += check.problems(in: text, file: "Templates/\(folder)/\(name).mustache", context: sample)
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// An empty array or a nil optional hides what a section inside it may name: every
    /// sample fills every field, so that every tag is checked.
    @Test func theSamplesFillEveryField() throws {
        var empty: [String] = []
        for (_, samples) in try TemplateSamples.all() {
            for (_, sample) in samples {
                empty += TemplateCheck.emptyFields(of: sample, path: TemplateCheck.name(of: sample))
            }
        }
        #expect(empty.isEmpty, "left empty in the samples: \(empty.joined(separator: ", "))")
    }

    @Test func aNameThatIsNoFieldIsReportedAtItsLine() throws {
        let check = try TemplateCheck.forSite()
        let step = try TemplateSamples.all()["Site"]!["step"]!
        let template = """
            <h1>{{title}}</h1>
            {{#blocks}}{{#listing}}{{captoin}} {{strings.next}}{{/listing}}{{/blocks}}
            {{#previous}}{{{title}}} {{strings.nope}}{{/previous}}{{tutorialTitle.count}}
            {{#hasDiagnostics}}{{previous}}{{/hasDiagnostics}}
            {{#blocks}}{{^lats()}}, {{/lats()}}{{/blocks}}{{^last()}}{{/last()}}
            {{#previos}}{{href}}{{/previos}}
            """
        #expect(
            check.problems(in: template, file: "step.mustache", context: step) == [
                "step.mustache:2: 'captoin' is not a field of Pages.Listing, Pages.Block or Pages.Step",
                "step.mustache:3: 'strings.nope': 'nope' is not an uncounted key of Templates/Site/strings/keys.json",
                "step.mustache:3: 'tutorialTitle.count': 'count' is not a field of String",
                "step.mustache:4: 'previous' is a Pages.StepLink, which renders as its Swift description, not text",
                "step.mustache:5: 'lats()': a position in a list is one of even, first, index, last, odd",
                "step.mustache:5: 'last()' reads the position in a list, outside any list",
                "step.mustache:6: 'previos' is not a field of Pages.Step",
            ])
    }
}

/// A fully populated sample of each template's context, by folder and template name.
enum TemplateSamples {
    static func all() throws -> [String: [String: Any]] {
        let strings = StringsLookup(try InterfaceStrings(language: "fr", site: templatesFolder + "/Site"))
        let link = Pages.StepLink(href: "02-b.html", number: 2, title: "B")
        let listing = Pages.Listing(
            id: "l", caption: "A.swift", isTest: true, stale: "stale", untranslated: "untranslated",
            sourceLanguage: "de", code: "let a = 1", status: "verified",
            badge: "✓", coverage: "1/1 ligne exécutée", hasDiagnostics: true, diagnostics: ["error"], changes: "line 1",
            wholeFile: "let a = 1")
        let site: [String: Any] = [
            "layout": Pages.Layout(
                language: "fr", title: "T", titleLanguage: "de", body: "<p>", root: "../", searchHref: "search.html",
                languages: [Pages.LanguageLink(code: "de", name: "Deutsch", href: "de/index.html", current: true)],
                footer: "F", banner: "B", bannerKind: "unverified", strings: strings),
            "root": Pages.Root(entries: [.init(href: "fr/index.html", name: "Français", code: "fr")], strings: strings),
            "index": Pages.Index(
                tutorials: [
                    .init(href: "t/index.html", title: "T", titleLanguage: "de", titleMark: "<span>", steps: "2 étapes")
                ], siteIntro: "I",
                strings: strings),
            "tutorial": Pages.Tutorial(
                title: "T", titleLanguage: "de", titleMark: "<p>", intro: "<p>", lesson: "swift run", steps: [link],
                strings: strings),
            "step": Pages.Step(
                tutorialTitle: "T", tutorialTitleLanguage: "de", tutorialHref: "index.html", title: "S",
                titleMark: "<p>",
                number: 1,
                position: "1/2",
                blocks: [
                    Pages.Block(prose: "<p>", listing: listing, output: Pages.Output(id: "o", text: "out"))
                ], hasDiagnostics: true, diagnostics: ["error"], lesson: "swift run", previous: link, next: link,
                glossaryHref: "glossary.html", strings: strings),
            "glossary": Pages.Glossary(
                tutorialTitle: "T", tutorialTitleLanguage: "de", tutorialHref: "index.html",
                entries: [
                    Pages.GlossaryEntry(
                        anchor: "term-a", term: "écouteur", sourceTerm: "Listener", sourceLanguage: "de",
                        admitted: "auditeur", avoid: "listener", definition: "D", definitionLanguage: "en")
                ], strings: strings),
            "search": Pages.Search(countForms: "{}", pluralRules: "[]", strings: strings),
        ]
        let benchmark = CodebaseTemplates.Benchmark(
            tutorialID: "t", name: "TBenchmark", target: "TBenchmark", dependencies: ["\"TStep01\""])
        let library = CodebaseTemplates.SystemLibrary(header: "// h", link: "z", include: "zlib.h", name: "CZlib")
        let codebase: [String: Any] = [
            "Package.swift": CodebaseTemplates.Package(
                header: "// h", systemLibraries: [.init(name: "CZlib", path: "Sources/CZlib")],
                targets: [
                    .init(name: "TStep01", testName: "TStep01Tests", dependencies: ["\"CZlib\""], hasDependencies: true)
                ],
                lessons: [.init(name: "t-lesson", target: "TLesson", dependencies: ["\"TStep01\""])],
                benchmarks: [benchmark], packages: [.init(url: "https://example.com/p", from: "1.0.0")],
                hasPackages: true),
            "README.md": CodebaseTemplates.Readme(
                header: "h", exampleTest: "TStep01Tests",
                lessons: [.init(tutorialID: "t", name: "t-lesson", firstLanguage: "de", stepRange: "1–2")],
                benchmarks: [benchmark], hasBenchmarks: true),
            "Lesson.swift": CodebaseTemplates.Lesson(
                header: "// h", tutorialID: "t", name: "t-lesson", entry: "main", firstLanguage: "de",
                languageTags: ["de", "fr"], imports: ["TStep01"],
                steps: [.init(number: 1, stepID: "a", languages: [.init(language: "de", module: "TStep01")])]),
            "module.modulemap": library,
            "shim.h": library,
        ]
        return ["Site": site, "Codebase": codebase]
    }
}

/// Resolves each tag of a template against a sample context as Mustache would.
struct TemplateCheck {
    /// The keys every language's interface strings have: what `{{strings.…}}` may name.
    var stringKeys: Set<String>

    /// The check, with the keys `Templates/Site/strings/keys.json` lists (every language's
    /// file has exactly those), but the counted ones, which only a count can choose a form of.
    static func forSite() throws -> TemplateCheck {
        let data = try Data(contentsOf: URL(fileURLWithPath: templatesFolder + "/Site/strings/keys.json"))
        let keys = Set(try JSONDecoder().decode([String: String].self, from: data).keys)
        return TemplateCheck(stringKeys: keys.subtracting(InterfaceStrings.counted))
    }

    /// A tag: `{{name}}`, `{{{name}}}`, `{{&name}}`, `{{#name}}`, `{{^name}}`, `{{/name}}`, `{{! … }}`,
    /// `{{% … }}` (a setting of the template).
    struct Tag {
        /// `#`, `^`, `/`, `!`, `>`, `=`…; nil for a variable.
        var sigil: Character?
        var name: String
        var line: Int
    }

    /// The tags of `text`, with the default delimiters.
    static func tags(in text: String) -> [Tag] {
        var tags: [Tag] = []
        var rest = text[...]
        var line = 1
        while let open = rest.range(of: "{{") {
            line += rest[..<open.lowerBound].count { $0 == "\n" }
            let triple = rest[open.upperBound...].hasPrefix("{")
            let start = triple ? rest.index(after: open.upperBound) : open.upperBound
            guard let close = rest[start...].range(of: triple ? "}}}" : "}}") else { break }
            var inside = rest[start..<close.lowerBound].trimmingCharacters(in: .whitespaces)[...]
            var sigil: Character? = nil
            if let first = inside.first, "#^/!%>=&<$".contains(first) {
                sigil = first
                inside = inside.dropFirst()
            }
            tags.append(Tag(sigil: sigil, name: inside.trimmingCharacters(in: .whitespaces), line: line))
            line += rest[start..<close.lowerBound].count { $0 == "\n" }
            rest = rest[close.upperBound...]
        }
        return tags
    }

    /// Each tag of `text` that names nothing in `context`, as `file:line: problem`.
    func problems(in text: String, file: String, context: Any) -> [String] {
        // The sections open at a tag, innermost last.
        var sections: [Section] = [Section(name: "", value: context)]
        var problems: [String] = []
        for tag in Self.tags(in: text) {
            let report = { (problem: String) in problems.append("\(file):\(tag.line): \(problem)") }
            switch tag.sigil {
            case "!", "%": continue
            case nil, "&":
                if sections.contains(where: \.isUnknown) { continue }
                switch lookup(tag.name, in: sections) {
                case .failure(let problem): report(problem.text)
                case .success(let value?) where !(value is String || value is Int):
                    report(
                        "'\(tag.name)' is a \(Self.name(of: value)), which renders as its Swift description, not text")
                case .success: break
                }
            case "#", "^":
                if sections.contains(where: \.isUnknown) {
                    sections.append(Section(name: tag.name, value: nil, isUnknown: true))
                    continue
                }
                switch lookup(tag.name, in: sections) {
                case .failure(let problem):
                    report(problem.text)
                    sections.append(Section(name: tag.name, value: nil, isUnknown: true))
                case .success(let value):
                    if tag.sigil == "^" || value is Bool {
                        sections.append(Section(name: tag.name, value: nil))
                    } else if let value, Mirror(reflecting: value).displayStyle == .collection {
                        let first = Mirror(reflecting: value).children.first?.value
                        if first == nil {
                            report("the sample leaves '\(tag.name)' empty: nothing in it can be checked")
                        }
                        sections.append(Section(name: tag.name, value: first, isList: true, isUnknown: first == nil))
                    } else {
                        if value == nil {
                            report("the sample leaves '\(tag.name)' empty: nothing in it can be checked")
                        }
                        sections.append(Section(name: tag.name, value: value, isUnknown: value == nil))
                    }
                }
            case "/":
                if sections.count > 1, sections.last!.name == tag.name {
                    sections.removeLast()
                } else {
                    report("'{{/\(tag.name)}}' closes no open section")
                }
            default:
                report("the check does not read '{{\(tag.sigil!)…}}' tags: teach TemplateCheck before using one")
            }
        }
        return problems
    }

    struct Problem: Error { var text: String }

    /// A section open at a tag: the value it puts on the stack (nil: a Boolean or inverted
    /// section, which renders with the stack as it is), whether it walks a list, and whether
    /// what it holds is unknown (its name is not a field, or the sample leaves it empty): the
    /// names inside are then left unchecked rather than reported against the wrong type.
    struct Section {
        var name: String
        var value: Any?
        var isList = false
        var isUnknown = false
    }

    /// The transforms that read the position in the innermost list, `{{^last()}}, {{/last()}}`:
    /// swift-mustache's `MustacheSequenceContext.transform(_:)`.
    static let positions: Set<String> = ["first", "last", "index", "even", "odd"]

    /// What `name` stands for inside `sections`; a transform, `name(argument)`, stands for its
    /// argument, and one without an argument for the position in the list being walked.
    func lookup(_ name: String, in sections: [Section]) -> Result<Any?, Problem> {
        guard let call = name.wholeMatch(of: /(\w+)\((.*)\)/) else {
            return resolve(name, in: sections.compactMap(\.value))
        }
        let (transform, argument) = (String(call.1), String(call.2))
        guard argument.isEmpty else { return resolve(argument, in: sections.compactMap(\.value)) }
        guard sections.contains(where: \.isList) else {
            return .failure(Problem(text: "'\(name)' reads the position in a list, outside any list"))
        }
        guard Self.positions.contains(transform) else {
            return .failure(
                Problem(
                    text: "'\(name)': a position in a list is one of \(Self.positions.sorted().joined(separator: ", "))"
                ))
        }
        return .success(transform == "index" ? 0 : true)
    }

    /// The value `name` (`a`, `a.b`, `.`) stands for in a section whose stack is `stack`
    /// (innermost last): its first part is looked up from the innermost value out, the other
    /// parts inside it. nil: the sample's field is nil.
    func resolve(_ name: String, in stack: [Any]) -> Result<Any?, Problem> {
        if name == "." { return .success(stack.last) }
        let parts = name.split(separator: ".").map(String.init)
        guard let first = stack.reversed().lazy.compactMap({ self.child(parts[0], of: $0) }).first else {
            let types = stack.reversed().map(Self.name(of:))
            let list = types.count == 1 ? types[0] : types.dropLast().joined(separator: ", ") + " or " + types.last!
            return .failure(Problem(text: "'\(name)' is not a field of \(list)"))
        }
        var value = first.value
        for part in parts.dropFirst() {
            guard let parent = value else {
                return .failure(Problem(text: "'\(name)': the sample leaves a part of it empty"))
            }
            guard let child = child(part, of: parent) else {
                if parent is StringsLookup {
                    return .failure(
                        Problem(
                            text: "'\(name)': '\(part)' is not an uncounted key of Templates/Site/strings/keys.json"))
                }
                return .failure(Problem(text: "'\(name)': '\(part)' is not a field of \(Self.name(of: parent))"))
            }
            value = child.value
        }
        return .success(value)
    }

    /// `parent`'s field `name`, its optional unwrapped (nil when the sample's is nil), or
    /// nil when `parent` has no such field.
    private func child(_ name: String, of parent: Any) -> Field? {
        if let strings = parent as? StringsLookup {
            return stringKeys.contains(name) ? Field(value: strings.child(named: name)) : nil
        }
        guard let field = Mirror(reflecting: parent).children.first(where: { $0.label == name }) else { return nil }
        return Field(value: Self.unwrapped(field.value))
    }

    /// A field found: its value, nil when the sample's is nil.
    private struct Field { var value: Any? }

    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrapped($0.value) } ?? nil
    }

    /// A type's name as written in the sources: `Pages.Step`.
    static func name(of value: Any) -> String {
        String(reflecting: type(of: value)).replacing(/\b(Swift|Stepwise\w*)\./, with: "")
    }

    /// The fields of `value`, at any depth, that are nil or empty arrays, as `Type.field`.
    static func emptyFields(of value: Any, path: String) -> [String] {
        guard !(value is StringsLookup) else { return [] }
        var empty: [String] = []
        for field in Mirror(reflecting: value).children {
            let label = path + "." + (field.label ?? "?")
            guard let child = unwrapped(field.value) else {
                empty.append(label)
                continue
            }
            if Mirror(reflecting: child).displayStyle == .collection {
                let elements = Mirror(reflecting: child).children.map(\.value)
                if elements.isEmpty { empty.append(label) }
                for element in elements { empty += emptyFields(of: element, path: label) }
            } else {
                empty += emptyFields(of: child, path: label)
            }
        }
        return empty
    }
}
