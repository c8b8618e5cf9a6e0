import Foundation
import StepwiseModel
import StepwiseSyntax

/// Line coverage of one run's verification: where the instrumented test and program runs write
/// their profiles, and how they are merged and read.
///
/// The codebase is always built instrumented (`PackageLayout.buildArguments`); a run that does
/// not measure sends every profile nowhere (`PackageLayout.profileDiscarded`). When it
/// measures, every profile goes into one folder of Stepwise's build,
/// `.build-stepwise/stepwise-coverage`, emptied when the
/// run starts: `tests-<pid>.profraw` for each test process (every run of `--repeat`, every run
/// after a crash), `program-<target>-<language>-<pid>.profraw` for each program. They are merged
/// with `llvm-profdata merge -sparse` and exported with `llvm-cov export -format=lcov`, the test
/// bundle and the lessons as objects, for the sources of the targets verified in this run only.
struct CoverageRun {
    /// The folder of the profiles.
    let folder: String
    /// `llvm-profdata`.
    let profdata: String
    /// `llvm-cov`.
    let cov: String

    /// The profiles' folder of the package at `directory`, emptied, with the tools of the
    /// toolchain that `swift` belongs to.
    init(directory: String, swift: String) throws {
        (profdata, cov) = try Self.tools(beside: swift)
        folder = URL(fileURLWithPath: PackageLayout.scratchFolder(of: directory, "stepwise-coverage")).path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// The environment of a test process.
    var testEnvironment: [String: String] { ["LLVM_PROFILE_FILE": folder + "/tests-%p.profraw"] }

    /// The environment of `target`'s program run in `language`.
    func programEnvironment(target: String, language: String) -> [String: String] {
        ["LLVM_PROFILE_FILE": folder + "/program-\(target)-\(language)-%p.profraw"]
    }

    /// `llvm-profdata` and `llvm-cov` in the folder of `swift` (found on the `PATH` when it is a
    /// bare name), or of the file it links to: those of another LLVM cannot read its profiles.
    static func tools(beside swift: String, path: String = ProcessInfo.processInfo.environment["PATH"] ?? "")
        throws(DiagnosticError) -> (profdata: String, cov: String)
    {
        let manager = FileManager.default
        let found =
            swift.contains("/")
            ? swift
            : path.split(separator: ":").map { "\($0)/\(swift)" }.first { manager.isExecutableFile(atPath: $0) }
        guard let found else {
            throw DiagnosticError(.error("coverage: `\(swift)` is not on the PATH", at: nil))
        }
        let folders = [
            (found as NSString).deletingLastPathComponent,
            URL(fileURLWithPath: found).resolvingSymlinksInPath().deletingLastPathComponent().path,
        ]
        for folder in folders
        where manager.isExecutableFile(atPath: folder + "/llvm-profdata")
            && manager.isExecutableFile(atPath: folder + "/llvm-cov")
        {
            return (folder + "/llvm-profdata", folder + "/llvm-cov")
        }
        throw DiagnosticError(
            .error(
                "coverage needs llvm-profdata and llvm-cov beside \(found), from the same toolchain; "
                    + "they are not in \(Array(Set(folders)).sorted().joined(separator: " or "))", at: nil))
    }

    /// The count of every line the coverage tools count, by the file's absolute path then the
    /// line: the profiles written so far, read with `objects` (the first the main one) for the
    /// files in `sources` (folders). Empty when no profile was written.
    func measure(objects: [String], sources: [String]) async throws -> [String: [Int: Int]] {
        let profiles = (try FileManager.default.contentsOfDirectory(atPath: folder)).filter {
            $0.hasSuffix(".profraw")
        }.sorted().map { folder + "/" + $0 }
        guard !profiles.isEmpty, let main = objects.first else { return [:] }
        let merged = folder + "/merged.profdata"
        let merge = try await ProcessRunner.run(
            profdata, ["merge", "-sparse"] + profiles + ["-o", merged], timeout: .seconds(3600))
        guard merge.succeeded else {
            throw DiagnosticError(
                .error("coverage: llvm-profdata merge failed:\n" + merge.output.suffix(2000), at: nil))
        }
        let export = try await ProcessRunner.run(
            cov,
            ["export", "-format=lcov", "-instr-profile", merged, main]
                + objects.dropFirst().flatMap { ["-object", $0] } + ["-sources"] + sources,
            timeout: .seconds(3600))
        guard export.succeeded else {
            throw DiagnosticError(.error("coverage: llvm-cov export failed:\n" + export.output.suffix(2000), at: nil))
        }
        return Lcov.counts(in: export.output)
    }
}

/// The lcov tracefile `llvm-cov export -format=lcov` writes.
enum Lcov {
    /// Each line's count (`DA:line,count`) by source file (`SF:path`); lines that are not part
    /// of a record (a warning the tool printed) are ignored.
    static func counts(in text: String) -> [String: [Int: Int]] {
        var counts: [String: [Int: Int]] = [:]
        var file: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("SF:") {
                file = String(line.dropFirst(3))
            } else if line == "end_of_record" {
                file = nil
            } else if let file, line.hasPrefix("DA:") {
                let fields = line.dropFirst(3).split(separator: ",")
                guard fields.count >= 2, let number = Int(fields[0]), let count = Int(fields[1]) else { continue }
                counts[file, default: [:]][number] = max(counts[file]?[number] ?? 0, count)
            }
        }
        return counts
    }
}

/// Reads line counts of the generated files as counts of listing lines, through the tangle's
/// own line map (`GeneratedFile.origin(ofLine:)`: Swift's coverage ignores `#sourceLocation`).
enum CoverageMapping {
    /// The counts of `target`'s own step listings (as it compiled them: its variant language's,
    /// else the source language's) in `counts`, which holds the lines of generated files by
    /// their paths relative to the package. A listing line counts only in the target of the step
    /// that shows it: lines an earlier step's listing left in the file are that step's, and a
    /// listing that shows a region again owns the lines it shows, in its own step.
    static func counts(of target: StepTarget, in tutorial: Tutorial, codebase: Codebase, lines: [String: [Int: Int]])
        -> [String: [Int?]]
    {
        let language = target.variantLanguage ?? tutorial.manifest.sourceLanguage
        let listings = tutorial.documents[language]?.step(target.stepID)?.listings ?? []
        var counts = Dictionary(
            uniqueKeysWithValues: listings.map { ($0.id, [Int?](repeating: nil, count: $0.lines.count)) })
        let index = Dictionary(
            uniqueKeysWithValues: listings.map { listing in
                (
                    listing.id,
                    Dictionary(listing.lines.enumerated().map { ($1.location.line, $0) }) { first, _ in first }
                )
            })
        let folders = [PackageLayout.sources(of: target.name), PackageLayout.tests(of: target.testName)]
        for file in codebase.files where folders.contains(PackageLayout.folder(of: file.path)) {
            for (line, count) in lines[file.path] ?? [:] {
                guard let origin = file.origin(ofLine: line), let id = origin.listingID,
                    let position = index[id]?[origin.location.line]
                else { continue }
                counts[id]![position] = max(counts[id]![position] ?? 0, count)
            }
        }
        return counts
    }

    /// `counts` (of `target`, see `counts(of:in:codebase:lines:)`) read on each language's own
    /// listings: a translation sharing the target has the same tokens (its comments may take
    /// other lines), so its line counts as the compiled line its first token is on.
    static func languages(
        of target: StepTarget, counts: [String: [Int?]], in tutorial: Tutorial, codebase: Codebase, memo: ParseMemo?
    ) -> [String: [String: ListingCoverage]] {
        let compiledLanguage = target.variantLanguage ?? tutorial.manifest.sourceLanguage
        guard let compiledStep = tutorial.documents[compiledLanguage]?.step(target.stepID) else { return [:] }
        var result: [String: [String: ListingCoverage]] = [:]
        for language in codebase.languages(backedBy: target, of: tutorial.manifest.languages) {
            guard let step = tutorial.documents[language]?.step(target.stepID) else { continue }
            for listing in step.listings {
                guard let listingCounts = counts[listing.id],
                    let compiled = compiledStep.listings.first(where: { $0.id == listing.id })
                else { continue }
                let lines = CodeLines(of: listing, memo: memo)
                var lineCount: (Int) -> Int? = { listingCounts.indices.contains($0) ? listingCounts[$0] : nil }
                var compiledLine: (Int) -> Int? = { $0 }
                if language != compiledLanguage {
                    let compiledLines = CodeLines(of: compiled, memo: memo)
                    guard compiledLines.tokenLines.count == lines.tokenLines.count else { continue }
                    compiledLine = { line in lines.firstToken[line].map { compiledLines.tokenLines[$0] } }
                    lineCount = { line in compiledLine(line).flatMap { listingCounts[$0] } }
                }
                var coverage = ListingCoverage(covered: 0, uncovered: [])
                for (number, line) in listing.lines.enumerated()
                where !line.isHidden && line.regionMarker == nil && lines.isCode[number] {
                    guard let count = lineCount(number) else { continue }
                    // The compiled listing says which lines are excused; a translation may give
                    // the reason in its own words on its own line.
                    let compiledExcuse = compiledLine(number).flatMap { compiled.lines[$0].excuse }
                    let excuse = compiledExcuse.map { line.excuse ?? $0 }
                    if count > 0 {
                        coverage.covered += 1
                        if let excuse { coverage.staleExcuses.append(excuse.location) }
                        continue
                    }
                    var location = line.location
                    location.column += line.code.prefix { $0 == " " || $0 == "\t" }.count
                    if let excuse {
                        coverage.excused.append(
                            ExcusedLine(
                                location: location, reason: excuse.reason,
                                reasonLanguage: line.excuse == nil ? compiledLanguage : language))
                    } else {
                        coverage.uncovered.append(location)
                    }
                }
                result[language, default: [:]][listing.id] = coverage
            }
        }
        return result
    }
}
