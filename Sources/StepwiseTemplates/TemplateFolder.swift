import Foundation
import Mustache
import StepwiseModel

/// A typed context of a template: a struct whose stored properties are the names its template
/// may use. Mustache reads them by reflection (`Mirror`), so only stored properties count;
/// `TemplateCheckTests` checks every tag of every template against them.
public protocol TemplateContext {}

/// A folder of Mustache templates (`Templates/Codebase`, `Templates/Site`), loaded the one way
/// both the codebase and the site load theirs, and rendered only with typed contexts.
public struct TemplateFolder: Sendable {
    /// The folder.
    public let path: String
    private let library: MustacheLibrary

    /// Every `.mustache` file of `folder`, parsed once, by name without the extension; a
    /// template that does not parse is reported at its file, line and column.
    public static func load(_ folder: String) async throws(DiagnosticError) -> TemplateFolder {
        do {
            return TemplateFolder(path: folder, library: try await MustacheLibrary(directory: folder))
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

    /// `<name>.mustache` rendered with `context`; a missing template is an error.
    public func render<Context: TemplateContext>(_ name: String, _ context: Context) throws(DiagnosticError)
        -> String
    {
        guard let text = library.render(context, withTemplate: name) else {
            throw DiagnosticError(
                .error(
                    "no template \(name).mustache",
                    at: SourceLocation(file: (path as NSString).appendingPathComponent(name + ".mustache"), line: 1)))
        }
        return text
    }
}
