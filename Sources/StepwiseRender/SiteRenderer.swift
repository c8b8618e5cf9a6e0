import Foundation
import Mustache
import StepwiseModel
import StepwiseSyntax
import StepwiseTemplates

/// A page or asset of the site, with its path under `Output/site`.
public struct SiteFile: Sendable, Hashable, Codable {
    /// The path relative to the site's root.
    public var path: String
    /// The contents.
    public var contents: String

    /// Creates a site file.
    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}

/// The sixth stage: a web site per language from the Mustache templates in `Templates/Site`.
///
/// Every listing carries its real status (`data-status="verified|unverified|failed"`);
/// only a verified one says it was compiled and tested. A site built without verification
/// says so on every page; the pages of a failed build show each problem under its listing.
/// Pages are `<lang>/index.html`, `<lang>/<tutorial>/index.html` and one page per step,
/// `<lang>/<tutorial>/NN-<step>.html`; each links to the same page in the other languages.
public struct SiteRenderer: Stage {
    /// What the site is made of.
    public struct Input: Sendable {
        /// The audited tutorials.
        public var tutorials: [AuditedTutorial]
        /// The codebase, to name the target behind each listing.
        public var codebase: Codebase
        /// What verification showed, or nil when it was skipped: each listing's badge says
        /// which, and a failed or skipped verification is announced on every page.
        public var verification: Verification?

        /// Creates the input.
        public init(tutorials: [AuditedTutorial], codebase: Codebase, verification: Verification?) {
            self.tutorials = tutorials
            self.codebase = codebase
            self.verification = verification
        }
    }

    /// The folder holding the templates, `style.css` and `strings/<lang>.json`.
    public let templates: String
    /// Where highlighted listings from earlier runs are kept; nil to highlight every listing.
    public let memo: ParseMemo?

    /// Creates the stage.
    public init(templates: String, memo: ParseMemo? = nil) {
        self.templates = templates
        self.memo = memo
    }

    /// `render`.
    public var name: String { "render" }

    /// Every file of the site.
    public func run(_ input: Input) async throws -> [SiteFile] {
        let library = try await TemplateFolder.load(templates)
        let languages = Array(Set(input.tutorials.flatMap(\.tutorial.manifest.languages))).sorted()
        var strings: [String: InterfaceStrings] = [:]
        for language in languages {
            strings[language] = try InterfaceStrings(language: language, site: templates)
        }
        var files: [SiteFile] = []
        let shared = memo.map { _ in
            RenderedPages.sharedDigest(templates: templates, languages: languages, verification: input.verification)
        }
        var folders: [String: String] = [:]
        for checked in input.tutorials {
            folders[checked.tutorial.id] = memo?.folderDigest(of: checked.tutorial.manifest.directory)
        }
        let contexts = Dictionary(
            uniqueKeysWithValues: languages.map {
                (
                    $0,
                    PageContext(language: $0, languages: languages, strings: strings, verification: input.verification)
                )
            })
        // Each tutorial's pages in each language, several at a time (highlighting is most of the
        // work, and no tutorial's pages depend on another's); then put together in order.
        let jobs = languages.flatMap { language in
            input.tutorials.filter { $0.tutorial.documents[language] != nil }.map { checked in
                let key = shared.flatMap { shared in
                    folders[checked.tutorial.id].map {
                        RenderedPages.key(
                            shared: shared, folder: $0, tutorial: checked.tutorial, language: language,
                            codebase: input.codebase, verification: input.verification)
                    }
                }
                return (language, checked, key)
            }
        }
        var rendered = try await jobs.concurrentMap { [self] language, checked, key in
            try pages(of: checked, language: language, contexts[language]!, library, input, key: key)
        }.makeIterator()
        for language in languages {
            let pages = contexts[language]!
            let words = strings[language]!
            let tutorials = input.tutorials.filter { $0.tutorial.documents[language] != nil }
            var search = SearchIndex(language: language)
            let index = Pages.Index(
                tutorials: tutorials.map { checked in
                    let title = TutorialTitle(checked.tutorial.manifest, language: language, strings: strings)
                    return Pages.Index.Entry(
                        href: "\(checked.tutorial.id)/index.html", title: title.text, titleLanguage: title.language,
                        titleMark: title.language.map { _ in
                            TranslationMarks.untranslatedLabel("span", strings: words)
                        },
                        steps: words.format("steps", count: checked.tutorial.manifest.steps.count))
                },
                siteIntro: input.verification?.succeeded == true ? words["siteIntro"] : words["siteIntro.unverified"],
                strings: StringsLookup(words))
            files.append(
                try page(
                    library, "index", index, at: "\(language)/index.html", pages, title: words["siteTitle"],
                    alternates: { "\($0)/index.html" }))
            for _ in tutorials {
                let tutorial = rendered.next()!
                files += tutorial.files
                search.entries += tutorial.search
            }
            files.append(SiteFile(path: "\(language)/search-index.js", contents: search.script))
            files.append(
                try page(
                    library, "search",
                    Pages.Search(
                        countForms: words.formsJSON("searchCount"), pluralRules: words.plurals.json,
                        strings: StringsLookup(words)), at: "\(language)/search.html",
                    pages, title: words["search"] + " – " + words["siteTitle"], alternates: { "\($0)/search.html" }))
        }
        let first = PageContext(
            language: languages.first ?? "en", languages: languages, strings: strings,
            verification: input.verification)
        let root = Pages.Root(
            entries: languages.map {
                Pages.Root.Entry(href: "\($0)/index.html", name: strings[$0]!["languageName"], code: $0)
            },
            strings: StringsLookup(strings[first.language]!))
        files.append(
            try page(
                library, "root", root, at: "index.html", first, title: "Stepwise",
                alternates: { "\($0)/index.html" }))
        files.append(SiteFile(path: "style.css", contents: try read("style.css")))
        files.append(SiteFile(path: "site.js", contents: try read("site.js")))
        return files
    }

    /// The pages of `checked` in `language`: those `memo` keeps under `key`, or rendered anew
    /// (and kept).
    private func pages(
        of checked: AuditedTutorial, language: String, _ pages: PageContext, _ library: TemplateFolder,
        _ input: Input, key: String?
    ) throws -> RenderedPages {
        if let key, let earlier: RenderedPages = memo?.cached(RenderedPages.kind, for: key) {
            memo?.keep(Self.highlightedKind, digests: earlier.highlighted)
            return earlier
        }
        var own = SearchIndex(language: language)
        var highlighted: [String] = []
        let files = try tutorial(
            checked.tutorial, language: language, status: checked.translations[language], pages, library,
            input.codebase, search: &own, highlighted: &highlighted)
        let rendered = RenderedPages(
            files: files, search: own.entries, highlighted: highlighted.map(ContentDigest.hex(of:)))
        if let key { memo?.store(rendered, RenderedPages.kind, for: key) }
        return rendered
    }

    private func tutorial(
        _ tutorial: Tutorial, language: String, status: TranslationStatus?, _ pages: PageContext,
        _ library: TemplateFolder, _ codebase: Codebase, search: inout SearchIndex, highlighted: inout [String]
    ) throws -> [SiteFile] {
        let document = tutorial.documents[language]!
        let strings = pages.strings[language]!
        let source = tutorial.manifest.sourceLanguage
        let marks = status.map { TranslationMarks(status: $0, sourceLanguage: source, strings: strings) }
        let typography = strings.typography
        let inlines = { (inlines: [Inline]) in HTML.inlines(inlines, typography: typography) }
        // A title still in the source's words is in the source's language; its mark stands before the heading.
        let stepTitle = { (step: Step) in
            marks?.state(at: step.titleTranslation.location) == .untranslated
                ? "<span lang=\"\(HTML.escape(source))\">\(inlines(step.title))</span>" : inlines(step.title)
        }
        let tutorialTitle = TutorialTitle(tutorial.manifest, language: language, strings: pages.strings)
        let plainTitle = tutorial.manifest.titles[language] ?? tutorial.id
        let title = tutorialTitle.text
        let fileName = { (index: Int) in
            String(format: "%02d-", index + 1) + tutorial.manifest.steps[index].id + ".html"
        }
        let link = { (index: Int) in
            Pages.StepLink(href: fileName(index), number: index + 1, title: inlines(document.steps[index].title))
        }
        let available = tutorial.manifest.languages
        search.add(
            href: "\(tutorial.id)/index.html", title: title, tutorial: title, blocks: document.intro,
            typography: typography)
        let contents = Pages.Tutorial(
            title: title, titleLanguage: tutorialTitle.language,
            titleMark: tutorialTitle.language.map { _ in TranslationMarks.untranslatedLabel("p", strings: strings) },
            intro: document.intro.map { HTML.block($0, strings: strings, marks: marks) }.joined(),
            lesson: "swift run lesson \(tutorial.id) --lang \(language)", steps: document.steps.indices.map(link),
            strings: StringsLookup(strings))
        var files = [
            try page(
                library, "tutorial", contents, at: "\(language)/\(tutorial.id)/index.html", pages, title: title,
                titleLanguage: tutorialTitle.language,
                alternates: { available.contains($0) ? "\($0)/\(tutorial.id)/index.html" : nil })
        ]
        let readerFiles = try ReaderFiles(document)
        let failed = pages.verification?.succeeded == false
        // The language's typography on its own words (not on the source term or the definition,
        // which are marked as another language).
        let glossary = Self.glossary(of: tutorial, language: language).map { entry in
            var entry = entry
            entry.term = typography.apply(entry.term)
            entry.admitted = entry.admitted.map(typography.apply)
            entry.avoid = entry.avoid.map(typography.apply)
            return entry
        }
        if !glossary.isEmpty {
            files.append(
                try page(
                    library, "glossary",
                    Pages.Glossary(
                        tutorialTitle: title, tutorialTitleLanguage: tutorialTitle.language, tutorialHref: "index.html",
                        entries: glossary,
                        strings: StringsLookup(strings)),
                    at: "\(language)/\(tutorial.id)/\(Self.glossaryFile)", pages,
                    title: typography.apply(strings["glossary"] + " – " + plainTitle),
                    alternates: {
                        available.contains($0) && !Self.glossary(of: tutorial, language: $0).isEmpty
                            ? "\($0)/\(tutorial.id)/\(Self.glossaryFile)" : nil
                    }))
        }
        for (index, step) in document.steps.enumerated() {
            let links =
                glossary.isEmpty ? nil : GlossaryLinks(tutorial.termbase, language: language, href: Self.glossaryFile)
            search.add(
                href: "\(tutorial.id)/\(fileName(index))", title: typography.plainText(step.title),
                tutorial: title, blocks: step.blocks, typography: typography)
            let verdict = StepVerdict(
                step: step, language: language, tutorial: tutorial, codebase: codebase,
                verification: pages.verification)
            let stepDiagnostics = failed ? verdict.otherDiagnostics : []
            let contents = Pages.Step(
                tutorialTitle: title, tutorialTitleLanguage: tutorialTitle.language, tutorialHref: "index.html",
                title: stepTitle(step),
                titleMark: marks?.markBefore(at: step.titleTranslation.location), number: index + 1,
                position: strings.format(
                    "stepOf", ["number": "\(index + 1)", "count": "\(document.steps.count)"]),
                blocks: step.blocks.map {
                    block(
                        for: $0, inStep: index, files: readerFiles, verdict: verdict, showsDiagnostics: failed,
                        strings: strings, marks: marks, links: links, highlighted: &highlighted)
                },
                hasDiagnostics: !stepDiagnostics.isEmpty,
                diagnostics: stepDiagnostics.map { DiagnosticLimit.cut($0.description, fullText: "report.json") },
                lesson: "swift run lesson \(tutorial.id) --lang \(language) --step \(index + 1)",
                previous: index > 0 ? link(index - 1) : nil,
                next: index + 1 < document.steps.count ? link(index + 1) : nil,
                glossaryHref: glossary.isEmpty ? nil : Self.glossaryFile, strings: StringsLookup(strings))
            files.append(
                try page(
                    library, "step", contents, at: "\(language)/\(tutorial.id)/\(fileName(index))", pages,
                    title: typography.plainText(step.title + [.text(" – " + plainTitle)]),
                    alternates: { available.contains($0) ? "\($0)/\(tutorial.id)/\(fileName(index))" : nil }))
        }
        return files
    }

    private func block(
        for block: Block, inStep index: Int, files: ReaderFiles, verdict: StepVerdict, showsDiagnostics: Bool,
        strings: InterfaceStrings, marks: TranslationMarks?, links: GlossaryLinks?, highlighted: inout [String]
    ) -> Pages.Block {
        switch block {
        case .listing(let listing):
            let listingVerdict = verdict.listing(listing.id)
            let status = listingVerdict?.status ?? .unverified
            let diagnostics = showsDiagnostics ? listingVerdict?.diagnostics ?? [] : []
            let changed = files.changedLines(of: listing, inStep: index) ?? []
            let coverage = listingVerdict?.coverage
            let lineCoverage = Self.lineCoverage(coverage, of: listing)
            let state = marks?.state(at: listing.location)
            let wholeFile = files.wholeFile(of: listing, inStep: index).map { whole in
                zip(whole, highlightedLines(whole.map(\.code), highlighted: &highlighted)).map { line, html in
                    line.isFromListing ? Self.mark(html, as: "region") : html
                }.joined(separator: "\n")
            }
            return Pages.Block(
                listing: Pages.Listing(
                    id: listing.id, caption: listing.caption,
                    isTest: listing.kind == .test, stale: state == .stale ? strings["stale"] : nil,
                    untranslated: state == .untranslated ? strings["untranslated"] : nil,
                    sourceLanguage: state == .untranslated ? marks?.sourceLanguage : nil,
                    code: highlightedLines(listing.visibleLines.map(\.code), highlighted: &highlighted).enumerated().map
                    { line, html in
                        Self.line(
                            html, changed: changed.contains(line), coverage: lineCoverage[line], strings: strings)
                    }.joined(separator: "\n"),
                    status: status.rawValue, badge: badge(status, target: verdict.target, strings: strings),
                    coverage: coverage.flatMap { Self.figure($0.figure, strings: strings) },
                    hasDiagnostics: !diagnostics.isEmpty,
                    diagnostics: diagnostics.map { DiagnosticLimit.cut($0.description, fullText: "report.json") },
                    changes: changed.isEmpty
                        ? nil
                        : strings.format(
                            "changedLines", count: changed.count, ["number": "\(index)", "lines": Self.ranges(changed)]),
                    wholeFile: wholeFile))
        case .output(let output):
            return Pages.Block(output: Pages.Output(id: output.id, text: output.text))
        default:
            return Pages.Block(prose: HTML.block(block, strings: strings, marks: marks, links: links))
        }
    }

    /// The glossary page's file name, in the tutorial's folder of each language.
    static let glossaryFile = "glossary.html"

    /// The glossary of `tutorial` in `language`: each concept that has a preferred term in the
    /// language and whose terms occur in the prose of that language or of the source, sorted
    /// by term.
    static func glossary(of tutorial: Tutorial, language: String) -> [Pages.GlossaryEntry] {
        let source = tutorial.manifest.sourceLanguage
        var used = Set<Int>()
        for code in Set([language, source]) {
            guard let document = tutorial.documents[code] else { continue }
            let index = TermIndex(tutorial.termbase, language: code)
            for text in document.proseTexts { used.formUnion(index.matches(in: text).map(\.concept)) }
        }
        let entries = used.sorted().compactMap { position -> Pages.GlossaryEntry? in
            let concept = tutorial.termbase.concepts[position]
            guard let preferred = concept.preferred(in: language) else { return nil }
            let terms = concept.terms[language] ?? []
            func joined(_ status: Term.Status) -> String? {
                let texts = terms.filter { $0.status == status && $0.text != preferred.text }.map(\.text)
                return texts.isEmpty ? nil : texts.joined(separator: ", ")
            }
            let sourceTerm = concept.preferred(in: source)?.text
            return Pages.GlossaryEntry(
                anchor: GlossaryLinks.anchor(concept.id), term: preferred.text,
                sourceTerm: language == source || sourceTerm == preferred.text ? nil : sourceTerm,
                sourceLanguage: source, admitted: joined(.admitted), avoid: joined(.deprecated),
                definition: concept.definition, definitionLanguage: concept.definitionLanguage)
        }
        return entries.sorted { $0.term.localizedStandardCompare($1.term) == .orderedAscending }
    }

    /// The memo's kind for highlighted listings.
    private static let highlightedKind = "highlighted-lines"

    /// `lines` as highlighted HTML, one string per line; each distinct text is highlighted once.
    /// The text is added to `highlighted`.
    private func highlightedLines(_ lines: [String], highlighted: inout [String]) -> [String] {
        let code = lines.joined(separator: "\n")
        highlighted.append(code)
        let html =
            memo?.value(Self.highlightedKind, for: code) { Highlighter.html(code, memo: memo) }
            ?? Highlighter.html(code)
        return html.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A line of highlighted HTML set apart as `kind` (`changed`, `region`).
    private static func mark(_ html: String, as kind: String) -> String {
        "<span class=\"line \(kind)\">\(html)</span>"
    }

    /// What line coverage says of a line a reader sees.
    enum LineCoverage: Equatable {
        /// It never ran in the tests or the program.
        case uncovered
        /// It never ran, and is not meant to.
        case excused(ExcusedLine)
    }

    /// What `coverage` says of each of `listing`'s visible lines, by their index among them;
    /// empty when coverage was not measured. Lines that ran, and lines that are no code, are
    /// not in it.
    static func lineCoverage(_ coverage: ListingCoverage?, of listing: Listing) -> [Int: LineCoverage] {
        guard let coverage else { return [:] }
        let uncovered = Set(coverage.uncovered.map(\.line))
        let excused = Dictionary(coverage.excused.map { ($0.location.line, $0) }) { first, _ in first }
        var lines: [Int: LineCoverage] = [:]
        for (index, line) in listing.visibleLines.enumerated() {
            if uncovered.contains(line.location.line) {
                lines[index] = .uncovered
            } else if let excuse = excused[line.location.line] {
                lines[index] = .excused(excuse)
            }
        }
        return lines
    }

    /// A line of highlighted HTML with its marks: changed since the step before; never run, or
    /// excused, with a quiet mark in the gutter and its words, for screen readers in the line
    /// (`line-note`, which the copy button leaves out), in a `title` for the mouse. An excused
    /// line takes the keyboard's focus, which shows its reason.
    static func line(_ html: String, changed: Bool, coverage: LineCoverage?, strings: InterfaceStrings) -> String {
        let classes = ["line"] + (changed ? ["changed"] : [])
        switch coverage {
        case nil:
            return changed ? mark(html, as: "changed") : html
        case .uncovered:
            let words = HTML.escape(strings["lineNotRun"])
            return "<span class=\"\((classes + ["uncovered"]).joined(separator: " "))\" title=\"\(words)\">\(html)"
                + "<span class=\"line-note\"> \(words)</span></span>"
        case .excused(let excuse):
            let reason =
                excuse.reasonLanguage == strings.language
                ? HTML.escape(excuse.reason)
                : "<span lang=\"\(HTML.escape(excuse.reasonLanguage))\">\(HTML.escape(excuse.reason))</span>"
            let note = HTML.escape(strings["lineExcused"]).replacingOccurrences(of: "{reason}", with: reason)
            let title = HTML.escape(strings.format("lineExcused", ["reason": excuse.reason]))
            return
                "<span class=\"\((classes + ["excused"]).joined(separator: " "))\" tabindex=\"0\" title=\"\(title)\">"
                + "\(html)<span class=\"line-note\"> \(note)</span></span>"
        }
    }

    /// A listing's coverage figure for its badge, "11/12 lines ran", with its excused lines
    /// when it has any; nil for a listing without executable lines.
    static func figure(_ figure: CoverageFigure, strings: InterfaceStrings) -> String? {
        guard figure.executable > 0 else { return nil }
        let ran = strings.format("linesRan", count: figure.executable, ["covered": "\(figure.covered)"])
        return figure.excused == 0 ? ran : ran + " · " + strings.format("linesExcused", count: figure.excused)
    }

    /// 0-based line indices as 1-based ranges: `3–7, 12`.
    static func ranges(_ lines: Set<Int>) -> String {
        var ranges: [ClosedRange<Int>] = []
        for line in lines.sorted().map({ $0 + 1 }) {
            if let last = ranges.last, last.upperBound + 1 == line {
                ranges[ranges.count - 1] = last.lowerBound...line
            } else {
                ranges.append(line...line)
            }
        }
        return ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
            .joined(separator: ", ")
    }

    /// The words on a listing's badge: only a verified listing says it was compiled and tested.
    private func badge(_ status: VerificationStatus, target: StepTarget?, strings: InterfaceStrings) -> String {
        switch status {
        case .verified: "✓ " + strings.format("verifiedIn", ["target": target?.name ?? ""])
        case .unverified: "○ " + strings["status.unverified"]
        case .failed: "✗ " + strings["status.failed"]
        }
    }

    /// Renders a page body from its typed context, then the layout around it.
    private func page<Contents: TemplateContext>(
        _ library: TemplateFolder, _ template: String, _ contents: Contents, at path: String, _ pages: PageContext,
        title: String, titleLanguage: String? = nil, alternates: (String) -> String?
    ) throws -> SiteFile {
        let depth = path.split(separator: "/").count - 1
        let root = String(repeating: "../", count: depth)
        let strings = pages.strings[pages.language]!
        let body = try library.render(template, contents)
        var layout = Pages.Layout(
            language: pages.language, title: title, titleLanguage: titleLanguage, body: body, root: root,
            searchHref: root + pages.language + "/search.html",
            languages: pages.languages.compactMap { language in
                alternates(language).map { href in
                    Pages.LanguageLink(
                        code: language, name: pages.strings[language]!["languageName"], href: root + href,
                        current: language == pages.language)
                }
            },
            footer: pages.verification?.succeeded == true ? strings["footer"] : strings["footer.unverified"],
            strings: StringsLookup(strings))
        switch pages.verification?.succeeded {
        case nil: (layout.banner, layout.bannerKind) = (strings["banner.unverified"], "unverified")
        case false?: (layout.banner, layout.bannerKind) = (strings["banner.preview"], "failed")
        case true?: break
        }
        return SiteFile(path: path, contents: try library.render("layout", layout))
    }

    private func read(_ name: String) throws -> String {
        let file = (templates as NSString).appendingPathComponent(name)
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw DiagnosticError(.error("cannot read \(file)", at: nil))
        }
        return text
    }

}

/// A tutorial's title on a page in one language: an untranslated title (`Manifest.untranslatedTitle`)
/// is in the source's language, with the source's typography. The page's `<title>` takes that
/// `lang` only where the title is the whole of it (a step's or glossary's `<title>` also holds
/// words in the page's language, and `<title>` holds no markup to set them apart).
private struct TutorialTitle {
    /// The title, typography applied.
    var text: String
    /// The source's language when the title is untranslated; nil when it is in the page's.
    var language: String?

    init(_ manifest: Manifest, language: String, strings: [String: InterfaceStrings]) {
        let untranslated = manifest.untranslatedTitle(in: language) != nil
        self.language = untranslated ? manifest.sourceLanguage : nil
        let typography = strings[self.language ?? language]!.typography
        text = typography.apply(manifest.titles[language] ?? manifest.id)
    }
}

/// The languages and their strings, for one page.
private struct PageContext: Sendable {
    var language: String
    var languages: [String]
    var strings: [String: InterfaceStrings]
    var verification: Verification?
}

/// Lets templates write `{{strings.next}}`.
struct StringsLookup: MustacheParent {
    let strings: InterfaceStrings

    init(_ strings: InterfaceStrings) { self.strings = strings }

    func child(named name: String) -> Any? { strings[name] }
}
