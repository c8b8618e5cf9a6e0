import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Notices changed files under some folders by comparing each file's modification time, size
/// and inode with the last look. Linux has no FSEvents, and a few looks a second over the
/// hundred-odd files of `Content/` and `Templates/` cost next to nothing.
///
/// Hidden files and folders and names ending in `~` (editors' swap files and backups) are left
/// out: the build reads none of them, and an editor may write them on every keystroke.
struct SourceWatcher: Sendable {
    /// What a look records of a file.
    struct Stamp: Equatable, Sendable {
        var seconds: Int
        var nanoseconds: Int
        var size: Int64
        var inode: UInt64
    }

    /// The folders watched, as given (their files are named the same way).
    let folders: [String]

    /// Every file under the folders now, by path.
    func snapshot() -> [String: Stamp] {
        var files: [String: Stamp] = [:]
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(atPath: folder) else { continue }
            while let relative = enumerator.nextObject() as? String {
                let components = relative.split(separator: "/")
                guard !components.contains(where: { $0.hasPrefix(".") }), !relative.hasSuffix("~") else { continue }
                let path = folder + "/" + relative
                var info = stat()
                guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                #if canImport(Darwin)
                    let modified = info.st_mtimespec
                #else
                    let modified = info.st_mtim
                #endif
                files[path] = Stamp(
                    seconds: Int(modified.tv_sec), nanoseconds: Int(modified.tv_nsec), size: Int64(info.st_size),
                    inode: UInt64(info.st_ino))
            }
        }
        return files
    }

    /// The files added, removed or changed between two looks, sorted.
    static func changes(from old: [String: Stamp], to new: [String: Stamp]) -> [String] {
        Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
    }
}
