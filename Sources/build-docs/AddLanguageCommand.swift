import ArgumentParser
import Foundation
import Stepwise
import StepwiseCLI
import StepwiseTranslationTools

/// `build-docs add-language`: scaffolds a new language, every segment untranslated.
struct AddLanguageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-language",
        abstract: "Scaffold a new language: a copy of each tutorial, its title and the interface strings.",
        discussion: """
            Writes Content/<tutorial>/<language>.xml, a copy of the source language's file whose \
            segments each record the source version they were copied from (origin="copy"): \
            untranslated while unchanged, a translation of that version once edited. Adds the \
            title to each manifest, marked origin="copy", and copies the interface strings of \
            the source language most tutorials share to Templates/Site/strings/<language>.json \
            unless it exists, with a form for each of the language's plural categories. Says \
            whether the language has typography and plural rules. Refuses a malformed tag and a \
            tutorial that has the language; writes every file or none.
            """
    )

    @OptionGroup var paths: PathOptions

    @Argument(help: ArgumentHelp("The language's BCP 47 tag (cs, pt-BR).", valueName: "language"))
    var language: String

    @Argument(help: ArgumentHelp("The tutorials to add it to (all when none is named).", valueName: "tutorial"))
    var tutorials: [String] = []

    func run() async throws {
        let added = try await TranslationWorkflow(options: paths.buildOptions).addLanguage(
            language, tutorials: tutorials.isEmpty ? nil : tutorials)
        print(
            "Added \(language) to \(added.tutorials.joined(separator: ", ")): \(added.segments) segments, all untranslated."
        )
        for file in added.files { print("  wrote \(file)") }
        if let source = added.stringsCopiedFrom {
            print(
                "Interface strings: copied from \(source).json (the source language most of the tutorials share); translate them in \(added.stringsFile)."
            )
        } else {
            print("Interface strings: \(added.stringsFile) is there already, left as it is.")
        }
        let warning = { (text: String) in Terminal.standardError.write("build-docs: warning: \(text)\n") }
        if let categories = added.pluralCategories {
            print("Plural rules: \(language) counts with \(categories.joined(separator: ", ")).")
        } else {
            warning(
                "Stepwise has no plural rules for '\(language)': counted strings take one form, other (add the language's CLDR rules to Sources/StepwiseRender/PluralRules.swift)"
            )
        }
        if added.hasTypography {
            print("Typography: Templates/Site/typography.json has rules for \(language).")
        } else {
            warning(
                "Templates/Site/typography.json has no rules for '\(language)': add them if its typesetting has rules about spaces"
            )
        }
        print("Next: swift run build-docs")
        print("  and if outputs differ: swift run build-docs accept-outputs --lang \(language)")
    }
}
