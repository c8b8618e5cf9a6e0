import Testing

@testable import StepwiseModel

/// The tests CI runs again under the thread sanitizer: those of the last steps of every tutorial.
@Suite("The last steps' test filter")
struct TestFilterTests {
    private func target(_ tutorial: String, _ number: Int, _ language: String? = nil) -> StepTarget {
        let base = PackageLayout.stepTarget(module: tutorial.capitalized, number: number)
        return StepTarget(
            tutorialID: tutorial, stepID: "s\(number)", number: number,
            name: language.map { PackageLayout.variantTarget(of: base, language: $0) } ?? base,
            variantLanguage: language, languages: [language ?? "de"])
    }

    @Test func theLastStepsOfEveryTutorialWithOrWithoutTheirVariants() {
        let codebase = Codebase(
            files: [],
            targets: [
                target("promises", 7), target("promises", 8), target("promises", 8, "fr"), target("promises", 9),
                target("promises", 9, "fr"), target("fetch", 1), target("fetch", 2, "pl"), target("fetch", 3),
            ], lessons: [])
        #expect(
            codebase.lastSteps(2).map(\.name)
                == [
                    "PromisesStep08", "PromisesStep08FR", "PromisesStep09", "PromisesStep09FR", "FetchStep02PL",
                    "FetchStep03",
                ])
        #expect(
            PackageLayout.testSelection(codebase.lastSteps(1).map(\.name))
                == "^(PromisesStep09Tests|PromisesStep09FRTests|FetchStep03Tests)[./]")
        #expect(
            codebase.lastSteps(2, variants: false).map(\.name) == ["PromisesStep08", "PromisesStep09", "FetchStep03"])
    }
}
