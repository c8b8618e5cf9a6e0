import Foundation
import Testing

private final class Token: Sendable {}

@Suite struct PerformanceTests {
    @Test func aChildSettledEarlyLetsGoOfItsHandler() throws {
        let parent = Promise<Int>()
        let first = parent.then { $0 + 1 }
        weak var released: Token?
        do {
            let token = Token()
            released = token
            // The second handler is kept in `more`; cancelling its child removes it from there.
            parent.then { _ in token }.cancel()
        }
        #expect(released == nil)
        parent.fulfill(1)
        #expect(try first.settled() == 2)
    }
}
