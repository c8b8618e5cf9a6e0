import Foundation
import StepwiseModel

/// Writes under `Output/` so that a reader never sees a half-written file or folder.
public enum OutputFiles {
    /// Writes `data` to a temporary file beside `path`, then moves it into place.
    public static func write(_ data: Data, to path: String) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw DiagnosticError(.error("cannot write \(path): \(error.localizedDescription)", at: nil))
        }
    }

    /// Removes `path` (a file or folder) when it exists.
    static func remove(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw DiagnosticError(.error("cannot remove \(path): \(error.localizedDescription)", at: nil))
        }
    }

    /// Builds the folder's new contents in a staging folder inside `staging`, then swaps it in.
    static func replaceFolder(_ folder: String, with files: [(path: String, data: Data)], staging: String) throws {
        let manager = FileManager.default
        let temporary = (staging as NSString).appendingPathComponent(".staging-\(UUID().uuidString)")
        do {
            for file in files {
                let url = URL(fileURLWithPath: temporary).appendingPathComponent(file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.data.write(to: url)
            }
            let old = temporary + "-old"
            if manager.fileExists(atPath: folder) { try manager.moveItem(atPath: folder, toPath: old) }
            try manager.moveItem(atPath: temporary, toPath: folder)
            try? manager.removeItem(atPath: old)
        } catch {
            try? manager.removeItem(atPath: temporary)
            throw DiagnosticError(.error("cannot write \(folder): \(error.localizedDescription)", at: nil))
        }
    }
}
