import Foundation
import Mustache
import StepwiseModel

/// A folder of Mustache templates (`Templates/Codebase`, `Templates/Site`), loaded the one way
/// both the codebase and the site load theirs.
public enum TemplateFolder {
    /// Every `.mustache` file of `folder`, parsed once, by name without the extension; a
    /// template that does not parse is reported at its file, line and column.
    public static func load(_ folder: String) async throws(DiagnosticError) -> MustacheLibrary {
        do {
            return try await MustacheLibrary(directory: folder)
        } catch let error as MustacheLibrary.ParserError {
            throw DiagnosticError(
                .error(
                    "the template does not parse: \(error.error)",
                    at: SourceLocation(
                        file: (folder as NSString).appendingPathComponent(error.filename),
                        line: error.context.lineNumber, column: error.context.columnNumber)))
        } catch {
            throw DiagnosticError(.error("cannot read the templates in \(folder): \(error)", at: nil))
        }
    }
}
