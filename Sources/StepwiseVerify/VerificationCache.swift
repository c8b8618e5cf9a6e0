import Foundation
import StepwiseFiles
import StepwiseModel

/// Verified step targets from earlier runs, one small JSON file per entry, named by the key
/// of everything that can change the target's outcome (see `VerificationKeys`).
///
/// Only verified results are stored, so a failure or a flaky test is never reused. Entries
/// hold no paths, so the folder can be copied to another machine or kept between CI runs.
public struct VerificationCache: Sendable {
    /// One verified target.
    public struct Entry: Codable, Sendable, Equatable {
        /// The key it was stored under.
        public var key: String
        /// The target's name, for people reading the folder.
        public var target: String
        /// How many times its tests ran, all passing.
        public var runs: Int
        /// Its tests.
        public var passed: Int
        /// What its program printed, by language (it matched the page).
        public var outputs: [String: String]
        /// How many times each line of the step's listings ran (`TargetCoverage.counts`), when
        /// the run measured coverage; absent otherwise.
        public var coverage: [String: [Int?]]? = nil

        /// The entry as stored: pretty-printed JSON with sorted keys, the same bytes for the
        /// same entry on every machine (the remote cache addresses it by its hash).
        public func encoded() throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return try encoder.encode(self)
        }

        /// Whether it stands for a run of at least `runs` test runs (with `coverage`, one that
        /// measured coverage).
        func serves(runs: Int, coverage: Bool) -> Bool { self.runs >= runs && (!coverage || self.coverage != nil) }
    }

    /// Where entries are written (`Output/`): every write goes through it.
    public let destination: any FileDestination
    /// The folder inside `destination` (`.cache/verification`).
    public let folder: String

    /// A cache kept in `folder` inside `destination`.
    public init(in destination: any FileDestination, folder: String) {
        self.destination = destination
        self.folder = folder
    }

    /// The entry stored under `key`, when there is one whose tests ran at least `runs` times
    /// (and, with `coverage`, that holds the coverage).
    public func entry(_ key: String, runs: Int, coverage: Bool = false) -> Entry? {
        let path = (destination.root as NSString).appendingPathComponent(self.path(key))
        guard let data = FileManager.default.contents(atPath: path),
            let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.key == key,
            entry.serves(runs: runs, coverage: coverage)
        else { return nil }
        return entry
    }

    /// Stores `entry` under its key.
    public func store(_ entry: Entry) throws {
        try destination.commit([FileChange(path: path(entry.key), contents: try entry.encoded())])
    }

    private func path(_ key: String) -> String { folder + "/" + key + ".json" }
}
