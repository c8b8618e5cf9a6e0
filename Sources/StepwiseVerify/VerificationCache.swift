import Foundation
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
    }

    /// The folder (`Output/.cache/verification`).
    public let folder: String

    /// A cache kept in `folder`.
    public init(folder: String) {
        self.folder = folder
    }

    /// The entry stored under `key`, when there is one whose tests ran at least `runs` times.
    public func entry(_ key: String, runs: Int) -> Entry? {
        guard let data = FileManager.default.contents(atPath: path(key)),
            let entry = try? JSONDecoder().decode(Entry.self, from: data), entry.key == key, entry.runs >= runs
        else { return nil }
        return entry
    }

    /// Stores `entry` under its key.
    public func store(_ entry: Entry) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(entry).write(to: URL(fileURLWithPath: path(entry.key)), options: .atomic)
    }

    private func path(_ key: String) -> String { (folder as NSString).appendingPathComponent("\(key).json") }
}
