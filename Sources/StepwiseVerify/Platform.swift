import Foundation
import StepwiseModel

#if canImport(Glibc)
    import Glibc
#endif

/// What a verified result depends on besides the code: the machine it ran on. Part of every
/// cache key, so that two machines that would verify differently never share an entry.
enum Platform {
    /// The operating system (its name and version from `/etc/os-release`, else the kernel's
    /// name) and the CPU architecture: `Debian GNU/Linux 12 (bookworm) x86_64`.
    static var current: String {
        let (kernel, machine) = uname()
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let name = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }.map {
            $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return "\(name ?? kernel) \(machine)"
    }

    /// Folders the C compiler searches for a system library's header, in its order.
    static let includeFolders = ["/usr/local/include", "/usr/include"]

    /// What identifies the installed version of each of `libraries`: the SHA-256 of the header
    /// the module includes (it holds the version, `SQLITE_VERSION`, `LIBXML_DOTTED_VERSION`),
    /// and the file the linker's `-l` name resolves to (`libsqlite3.so.0.8.6`). A library that
    /// several tutorials link is read once.
    static func versions(of libraries: [SystemLibrary], libraryFolders: [String] = defaultLibraryFolders)
        -> [String: String]
    {
        var result: [String: String] = [:]
        for library in libraries where result[library.name] == nil {
            let header = includeFolders.map { $0 + "/" + library.header }.first {
                FileManager.default.fileExists(atPath: $0)
            }
            let headerText = header.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            let shared = libraryFolders.map { "\($0)/lib\(library.link).so" }.first {
                FileManager.default.fileExists(atPath: $0)
            }
            let resolved = shared.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().lastPathComponent }
            result[library.name] =
                "header \(library.header) "
                + (headerText.map { ContentDigest.hex(of: $0) } ?? "not found") + ", library "
                + (resolved ?? "not found")
        }
        return result
    }

    /// Where the linker finds shared libraries on this machine.
    static var defaultLibraryFolders: [String] {
        let machine = uname().machine
        return ["/usr/local/lib", "/usr/lib/\(machine)-linux-gnu", "/usr/lib", "/lib/\(machine)-linux-gnu"]
    }

    /// The kernel's name (`Linux`) and the CPU architecture (`x86_64`), as `uname` tells them.
    private static func uname() -> (system: String, machine: String) {
        var names = utsname()
        _ = Glibc.uname(&names)
        func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return (text(&names.sysname), text(&names.machine))
    }
}
