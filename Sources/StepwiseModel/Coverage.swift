/// Which lines of a step's listings ran while its target was verified: its tests, and its
/// program in every language it backs (a line that ran in any of them ran: the languages share
/// one target, one code).
public struct TargetCoverage: Sendable, Hashable {
    /// How many times each line of each of the step's own listings ran, by listing id, as the
    /// target compiled them (the source language's listing, or the variant language's): index
    /// 0 is the listing's first line, hidden lines and region markers included. Nil for a line
    /// the coverage tools count nothing for (no code there) or that is in no generated file.
    /// Positions in the tutorial source are not kept, so prose moving a listing changes nothing:
    /// this is what the verification cache stores.
    public var counts: [String: [Int?]]
    /// Each listing's coverage in each language the target backs, by language, then listing
    /// id: the counts read on the language's own listing (see `Verify`).
    public var languages: [String: [String: ListingCoverage]]

    /// Creates the coverage of a target.
    public init(counts: [String: [Int?]], languages: [String: [String: ListingCoverage]] = [:]) {
        self.counts = counts
        self.languages = languages
    }
}

/// How the executable lines of one listing, in one language, ran. Comments, blank lines,
/// imports, declarations without a body, lines of only closing brackets and hidden lines are
/// not counted.
public struct ListingCoverage: Sendable, Hashable {
    /// Executable lines that ran.
    public var covered: Int
    /// Where each executable line that never ran starts, in the tutorial source.
    public var uncovered: [SourceLocation]

    /// Creates a listing's coverage.
    public init(covered: Int, uncovered: [SourceLocation]) {
        self.covered = covered
        self.uncovered = uncovered
    }

    /// Its figure.
    public var figure: CoverageFigure { CoverageFigure(covered: covered, executable: covered + uncovered.count) }
}

/// Lines covered of executable lines, for a listing, a step, or a tutorial in one language.
public struct CoverageFigure: Sendable, Hashable, Codable {
    /// Executable lines that ran.
    public var covered: Int
    /// Executable lines.
    public var executable: Int

    /// Creates a figure.
    public init(covered: Int, executable: Int) {
        self.covered = covered
        self.executable = executable
    }

    /// The figures added up.
    public static func sum(_ figures: some Sequence<CoverageFigure>) -> CoverageFigure {
        figures.reduce(CoverageFigure(covered: 0, executable: 0)) {
            CoverageFigure(covered: $0.covered + $1.covered, executable: $0.executable + $1.executable)
        }
    }

    /// covered ÷ executable in percent, one decimal; 100 when nothing is executable.
    public var percent: Double {
        executable == 0 ? 100 : (Double(covered) * 1000 / Double(executable)).rounded(.down) / 10
    }
}
