import Foundation

/// Reads the JSON Lines event stream that Swift Testing writes
/// (`swift test --experimental-event-stream-output`).
struct TestEvents {
    /// A test function and what happened to it.
    struct TestCase {
        var id: String
        var name: String
        var started = false
        var ended = false
        var skipped = false
        var failures: [Failure] = []
        var location: Location?

        /// The test module (`GreetingStep01Tests`).
        var module: String { String(id.prefix { $0 != "." && $0 != "/" }) }
    }

    /// A failed expectation or a thrown error.
    struct Failure {
        var message: String
        var location: Location?
    }

    /// A position as Swift Testing reports it.
    struct Location: Decodable {
        var filePath: String?
        var _filePath: String?
        var line: Int
        var column: Int

        var path: String? { filePath ?? _filePath }
    }

    /// The test functions, in the order they were announced.
    private(set) var tests: [TestCase] = []
    /// Whether the run reached its end (false when the process crashed or was stopped).
    private(set) var runEnded = false
    /// Where each test is in `tests`, by id.
    private var index: [String: Int] = [:]

    init(jsonLines: String) { read(jsonLines) }

    /// Reads more of the stream, in whole lines: the events written since the last read.
    mutating func read(_ jsonLines: String) {
        let decoder = JSONDecoder()
        for line in jsonLines.split(separator: "\n") {
            guard let record = try? decoder.decode(Record.self, from: Data(line.utf8)) else { continue }
            let payload = record.payload
            if record.kind == "test" {
                if payload.kind == "function", let id = payload.id {
                    index[id] = tests.count
                    tests.append(TestCase(id: id, name: payload.name ?? id, location: payload.sourceLocation))
                }
                continue
            }
            if payload.kind == "runEnded" { runEnded = true }
            guard let testID = payload.testID, let position = index[testID] else { continue }
            switch payload.kind {
            case "testStarted": tests[position].started = true
            case "testEnded": tests[position].ended = true
            case "testSkipped": tests[position].skipped = true
            case "issueRecorded" where payload.issue?.isFailure != false && payload.issue?.isKnown != true:
                let text = payload.messages?.first { $0.symbol == "fail" }?.text ?? payload.messages?.first?.text
                tests[position].failures.append(
                    Failure(message: text ?? "an issue was recorded", location: payload.issue?.sourceLocation))
            default: break
            }
        }
    }

    /// The test that started and never ended, when the run did not reach its end.
    var unfinished: TestCase? { runEnded ? nil : tests.first { $0.started && !$0.ended } }

    /// Every test that started and never ended, when the run did not reach its end: Swift Testing
    /// runs tests side by side, so any of them may be the one that crashed the process.
    var allUnfinished: [TestCase] { runEnded ? [] : tests.filter { $0.started && !$0.ended } }

    private struct Record: Decodable {
        var kind: String
        var payload: Payload
    }

    private struct Payload: Decodable {
        var kind: String
        var id: String?
        var name: String?
        var testID: String?
        var sourceLocation: Location?
        var issue: Issue?
        var messages: [Message]?
    }

    private struct Issue: Decodable {
        var isFailure: Bool?
        var isKnown: Bool?
        var sourceLocation: Location?
    }

    private struct Message: Decodable {
        var symbol: String
        var text: String
    }
}
