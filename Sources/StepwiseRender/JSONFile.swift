import Foundation
import StepwiseModel

/// The JSON files of the site's templates (`strings/<lang>.json`, `typography.json`), decoded
/// with any problem at its line, as an author's file is.
enum JSONFile {
    /// The value in `file`, and the file's bytes (to find a key's line in). A file that cannot
    /// be read, is no JSON or does not have the shape of `type` is an error at the line of the
    /// problem (a value of the wrong kind: the line of its top-level key).
    static func decode<T: Decodable>(_ type: T.Type, file: String) throws(DiagnosticError) -> (T, Data) {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw DiagnosticError(.error("cannot read \(file)", at: nil))
        }
        do {
            return (try JSONDecoder().decode(type, from: data), data)
        } catch let error as DecodingError {
            throw DiagnosticError(
                .error(message(error), at: SourceLocation(file: file, line: line(of: error, in: data))))
        } catch {
            throw DiagnosticError(.error("not JSON: \(error)", at: SourceLocation(file: file, line: 1)))
        }
    }

    /// The first line where `key` stands as a key (`"key":`), or 1.
    static func line(ofKey key: String, in data: Data) -> Int {
        let quoted = "\"" + key + "\""
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let index = lines.firstIndex { line in
            guard let range = line.range(of: quoted) else { return false }
            return line[range.upperBound...].drop(while: \.isWhitespace).first == ":"
        }
        return (index ?? 0) + 1
    }

    /// Where `error` is: the line the JSON parser names, else the line of the first key of its path.
    private static func line(of error: DecodingError, in data: Data) -> Int {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // JSONDecoder does not say where; JSONSerialization says at which byte.
            guard case .failure(let error) = Result(catching: { try JSONSerialization.jsonObject(with: data) }),
                let offset = "\(error)".firstMatch(of: /around character (\d+)/).flatMap({ Int($0.output.1) })
            else { return 1 }
            return data.prefix(offset).count(where: { $0 == UInt8(ascii: "\n") }) + 1
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            return context.codingPath.first.map { line(ofKey: $0.stringValue, in: data) } ?? 1
        @unknown default:
            return 1
        }
    }

    /// What is wrong, in the words of the file: its path of keys and the decoder's reason.
    private static func message(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not JSON: \(context.debugDescription)"
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)): no \"\(key.stringValue)\""
        @unknown default:
            return "\(error)"
        }
    }

    /// `fr[0].space`.
    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            .trimmingPrefix(".").description
    }
}
