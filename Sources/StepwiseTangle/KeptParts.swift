import Foundation
import StepwiseModel
import StepwiseSyntax
import StepwiseTemplates

extension Tangle {
    /// The memo's kind for what a tutorial adds to the whole package.
    static let keptKind = "tangled-part"

    /// What `tutorial` adds to the package, from the memo when a run kept it there under the
    /// same digest: the tool (a version, to change whenever tangling changes without the
    /// executable changing, and the executable), every file of the codebase's templates, the
    /// content's label, and the tutorial's folder (`ParseMemo.folderDigest(of:)`: the tutorial
    /// and what the language check found in it are functions of its files). A selection's
    /// package is always tangled anew.
    func keptPart(of tutorial: CheckedTutorial, library: TemplateFolder) throws(DiagnosticError) -> TutorialPart? {
        guard selection == nil, let memo, let folder = memo.folderDigest(of: tutorial.tutorial.manifest.directory)
        else { return try part(of: tutorial, library: library) }
        var digest = ContentDigest()
        digest.add("version", "stepwise-tangle-1")
        digest.addExecutable()
        digest.add(folder: templates)
        digest.add("content label", contentLabel)
        digest.add("folder", folder)
        if let kept: TutorialPart = memo.cached(Self.keptKind, for: digest.hex) { return kept }
        let part = try part(of: tutorial, library: library)
        if let part { memo.store(part, Self.keptKind, for: digest.hex) }
        return part
    }
}
