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
public struct ListingCoverage: Sendable, Hashable, Codable {
    /// Executable lines that ran.
    public var covered: Int
    /// Where each executable line that never ran starts, in the tutorial source (excused lines
    /// are not here).
    public var uncovered: [SourceLocation]
    /// The executable lines that never ran and that the author excused (`Excuse`).
    public var excused: [ExcusedLine]
    /// Where the excuse of each excused line that ran anyway is: its marker, in the listing
    /// that declares it (this language's, or the compiled listing's when this one has none).
    public var staleExcuses: [SourceLocation]

    /// Creates a listing's coverage.
    public init(
        covered: Int, uncovered: [SourceLocation], excused: [ExcusedLine] = [], staleExcuses: [SourceLocation] = []
    ) {
        self.covered = covered
        self.uncovered = uncovered
        self.excused = excused
        self.staleExcuses = staleExcuses
    }

    /// Its figure.
    public var figure: CoverageFigure {
        CoverageFigure(
            covered: covered, excused: excused.count, executable: covered + uncovered.count + excused.count)
    }
}

/// An executable listing line that never ran and that the author says is not meant to run.
public struct ExcusedLine: Sendable, Hashable, Codable {
    /// Where the line's code starts, in this language's listing.
    public var location: SourceLocation
    /// Why it is not meant to run, as the author wrote it.
    public var reason: String
    /// The language `reason` is written in: this listing's, or the compiled listing's when this
    /// translation does not give the reason in its own words.
    public var reasonLanguage: String

    /// Creates an excused line.
    public init(location: SourceLocation, reason: String, reasonLanguage: String) {
        self.location = location
        self.reason = reason
        self.reasonLanguage = reasonLanguage
    }
}

/// Lines covered or excused of executable lines, for a listing, a step, or a tutorial in one
/// language.
public struct CoverageFigure: Sendable, Hashable, Codable {
    /// Executable lines that ran.
    public var covered: Int
    /// Executable lines that never ran and are excused: not meant to run.
    public var excused: Int
    /// Executable lines.
    public var executable: Int

    /// Creates a figure.
    public init(covered: Int, excused: Int = 0, executable: Int) {
        self.covered = covered
        self.excused = excused
        self.executable = executable
    }

    /// The figures added up.
    public static func sum(_ figures: some Sequence<CoverageFigure>) -> CoverageFigure {
        figures.reduce(CoverageFigure(covered: 0, executable: 0)) {
            CoverageFigure(
                covered: $0.covered + $1.covered, excused: $0.excused + $1.excused,
                executable: $0.executable + $1.executable)
        }
    }

    /// (covered + excused) ÷ executable in percent, one decimal; 100 when nothing is executable.
    public var percent: Double {
        executable == 0 ? 100 : (Double(covered + excused) * 1000 / Double(executable)).rounded(.down) / 10
    }
}
