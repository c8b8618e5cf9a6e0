import StepwiseTemplates

/// The typed contexts of the site's templates, one per template (`Templates/Site/*.mustache`):
/// a template can only name what its type has: a renamed property fails to compile here, and
/// a tag naming no property fails `TemplateCheckTests` rather than rendering as empty text
/// (a new template or field needs its sample there). Text properties hold escaped HTML where the
/// template writes them with triple braces (`{{{title}}}`), plain text everywhere else.
enum Pages {
    /// `layout.mustache`: the frame around every page.
    struct Layout: TemplateContext {
        var language: String
        var title: String
        /// The title's language when it is not the page's: a tutorial's title still in the source's words.
        var titleLanguage: String?
        /// The page's own HTML.
        var body: String
        /// The way from this page up to the site's root: `../../`.
        var root: String
        var searchHref: String
        var languages: [LanguageLink]
        var footer: String
        /// A note on every page of a site built without verification or of a failed build.
        var banner: String?
        var bannerKind: String?
        var strings: StringsLookup
    }

    /// This page in one language, for the language switcher and `hreflang` alternates.
    struct LanguageLink {
        var code: String
        var name: String
        var href: String
        var current: Bool
    }

    /// `root.mustache`: the site's first page, one entry per language.
    struct Root: TemplateContext {
        struct Entry {
            var href: String
            var name: String
            var code: String
        }
        var entries: [Entry]
        var strings: StringsLookup
    }

    /// `index.mustache`: a language's list of tutorials.
    struct Index: TemplateContext {
        struct Entry {
            var href: String
            var title: String
            /// The title's language and its mark (HTML), when it is still the source's title.
            var titleLanguage: String?
            var titleMark: String?
            /// How many steps, counted in the language: "8 Schritte".
            var steps: String
        }
        var tutorials: [Entry]
        var siteIntro: String
        var strings: StringsLookup
    }

    /// `tutorial.mustache`: a tutorial's introduction and its steps.
    struct Tutorial: TemplateContext {
        var title: String
        /// The title's language when it is still the source's title, and its mark, a block set
        /// before the heading (HTML).
        var titleLanguage: String?
        var titleMark: String?
        var intro: String
        var lesson: String
        var steps: [StepLink]
        var strings: StringsLookup
    }

    /// A link to a step, with its number and title (HTML).
    struct StepLink {
        var href: String
        var number: Int
        var title: String
    }

    /// `step.mustache`: one step.
    struct Step: TemplateContext {
        var tutorialTitle: String
        /// The tutorial title's language when it is still the source's title.
        var tutorialTitleLanguage: String?
        var tutorialHref: String
        var title: String
        /// The mark of a stale or untranslated title, a block set before the heading (HTML).
        var titleMark: String?
        var number: Int
        var position: String
        var blocks: [Block]
        var hasDiagnostics: Bool
        var diagnostics: [String]
        var lesson: String
        var previous: StepLink?
        var next: StepLink?
        /// The tutorial's glossary page, when its termbase has terms in the page's language.
        var glossaryHref: String?
        var strings: StringsLookup
    }

    /// `glossary.mustache`: the terms of a tutorial in one language.
    struct Glossary: TemplateContext {
        var tutorialTitle: String
        /// The tutorial title's language when it is still the source's title.
        var tutorialTitleLanguage: String?
        var tutorialHref: String
        var entries: [GlossaryEntry]
        var strings: StringsLookup
    }

    /// One concept on the glossary page.
    struct GlossaryEntry {
        /// The anchor that terms in the prose link to.
        var anchor: String
        /// The preferred term in the page's language.
        var term: String
        /// The source language's term, when it is written otherwise.
        var sourceTerm: String?
        var sourceLanguage: String
        /// Admitted terms, joined.
        var admitted: String?
        /// Deprecated terms, joined.
        var avoid: String?
        var definition: String
        var definitionLanguage: String
    }

    /// One block of a step: exactly one of the three is set.
    struct Block {
        var prose: String?
        var listing: Listing?
        var output: Output?
    }

    /// A listing, highlighted, with its verification status.
    struct Listing {
        var id: String
        var caption: String
        var isTest: Bool
        /// The stale mark's words, when the translation is stale.
        var stale: String?
        /// The untranslated mark's words, when the listing's comments and strings are still the source's.
        var untranslated: String?
        /// The source's language, which an untranslated listing's comments and strings are in.
        var sourceLanguage: String?
        var code: String
        var status: String
        var badge: String
        /// The listing's coverage figure ("11/12 lines ran"), when coverage was measured.
        var coverage: String?
        var hasDiagnostics: Bool
        var diagnostics: [String]
        /// The words that name the lines changed since the step before, when any are marked.
        var changes: String?
        /// The whole file as of the step, for a region listing.
        var wholeFile: String?
    }

    /// What a step's program prints.
    struct Output {
        var id: String
        var text: String
    }

    /// `search.mustache`: the search page; the results are made in the browser.
    struct Search: TemplateContext {
        /// The forms of `searchCount` by plural category, as JSON, for `site.js` to choose from.
        var countForms: String
        /// The language's plural rules, as JSON (`PluralRules.json`).
        var pluralRules: String
        var strings: StringsLookup
    }
}
