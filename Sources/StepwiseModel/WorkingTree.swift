/// The files of a step's module as the steps so far have left them, line by line, each
/// line remembering where it came from: what Tangle writes, and what the site shows of a
/// file as of a step.
public struct WorkingTree: Sendable, Hashable {
    /// A line of a file in the making.
    public struct Line: Sendable, Hashable {
        /// The line as compiled.
        public var code: String
        /// Where it came from.
        public var origin: Origin
        /// Whether a reader sees it: false for a hidden line, a region marker or a hidden file's line.
        public var isShown: Bool

        /// Creates a line.
        public init(code: String, origin: Origin, isShown: Bool) {
            self.code = code
            self.origin = origin
            self.isShown = isShown
        }
    }

    /// A file's place: the library target or the test target, and its path there.
    public struct Key: Sendable, Hashable, Comparable {
        /// Library or test code.
        public var kind: Listing.Kind
        /// The path inside the target.
        public var path: String

        /// Creates a key.
        public init(kind: Listing.Kind, path: String) {
            self.kind = kind
            self.path = path
        }

        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.kind.rawValue, lhs.path) < (rhs.kind.rawValue, rhs.path)
        }
    }

    /// Every file, by its place.
    public private(set) var files: [Key: [Line]] = [:]

    /// An empty tree.
    public init() {}

    /// Applies a listing: a whole file replaces the file, a region replaces the lines
    /// between its markers.
    public mutating func apply(_ listing: Listing, previousStep: String?) throws(DiagnosticError) {
        let key = Key(kind: listing.kind, path: listing.file)
        let lines = listing.lines.map {
            Line(
                code: $0.code, origin: Origin(location: $0.location, listingID: listing.id),
                isShown: !$0.isHidden && $0.regionMarker == nil)
        }
        try checkMarkers(of: listing)
        guard let region = listing.region else {
            files[key] = lines
            return
        }
        guard let existing = files[key] else {
            throw DiagnosticError(
                .error(
                    "region '\(region)' is in \(listing.file), which no earlier step created",
                    at: listing.location))
        }
        let opening = existing.firstIndex { $0.code.regionMarker == RegionMarker(opens: true, name: region) }
        let closing = existing.firstIndex { $0.code.regionMarker == RegionMarker(opens: false, name: region) }
        guard let opening, let closing, opening < closing else {
            let known = existing.compactMap { $0.code.regionMarker }.filter(\.opens).map(\.name)
            throw DiagnosticError(
                .error(
                    "region '\(region)' does not exist in \(listing.file)"
                        + (previousStep.map { " as step '\($0)' left it" } ?? "")
                        + (known.isEmpty ? "" : " (its regions: \(known.joined(separator: ", ")))"),
                    at: listing.location))
        }
        let indent = String(existing[opening].code.prefix { $0 == " " || $0 == "\t" })
        let indented = lines.map { line in
            var line = line
            if !line.code.isEmpty {
                line.code = indent + line.code
                line.origin.indent = indent.count
            }
            return line
        }
        files[key] = Array(existing[...opening]) + indented + Array(existing[closing...])
    }

    /// Adds or replaces a hidden test file.
    public mutating func add(_ hidden: HiddenFile) {
        files[Key(kind: .test, path: hidden.target)] = hidden.lines
    }

    /// Removes a file from whichever target holds it.
    public mutating func remove(_ path: String, at location: SourceLocation) throws(DiagnosticError) {
        let keys = files.keys.filter { $0.path == path }
        if keys.isEmpty {
            throw DiagnosticError(.error("no earlier step has a file '\(path)' to remove", at: location))
        }
        for key in keys { files[key] = nil }
    }

    /// The ids of the listings whose lines are in the files now.
    public var listingIDs: Set<String> { Set(files.values.joined().compactMap(\.origin.listingID)) }

    /// A listing may hold markers of nested regions, balanced, but not of the region it replaces.
    private func checkMarkers(of listing: Listing) throws(DiagnosticError) {
        var open: [(RegionMarker, SourceLocation)] = []
        for line in listing.lines {
            guard let marker = line.regionMarker else { continue }
            if marker.name == listing.region {
                throw DiagnosticError(
                    .error(
                        "listing '\(listing.id)' replaces region '\(marker.name)' and must not contain its markers",
                        at: line.location))
            }
            if marker.opens {
                open.append((marker, line.location))
            } else if open.last?.0.name == marker.name {
                open.removeLast()
            } else {
                throw DiagnosticError(.error("'// endregion: \(marker.name)' closes no open region", at: line.location))
            }
        }
        if let (marker, location) = open.last {
            throw DiagnosticError(.error("region '\(marker.name)' is never closed", at: location))
        }
    }
}

extension RegionMarker {
    init(opens: Bool, name: String) {
        self.init(line: (opens ? "// region: " : "// endregion: ") + name)!
    }
}

extension String {
    fileprivate var regionMarker: RegionMarker? { RegionMarker(line: self) }
}

extension HiddenFile {
    /// The file's lines, each remembering its line in the file; the final line break ends the
    /// last line rather than starting an empty one.
    public var lines: [WorkingTree.Line] {
        let lines = contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            WorkingTree.Line(
                code: String($0.element),
                origin: Origin(location: location.advanced(byLines: $0.offset), listingID: nil), isShown: false)
        }
        return lines.last?.code.isEmpty == true ? Array(lines.dropLast()) : lines
    }
}
