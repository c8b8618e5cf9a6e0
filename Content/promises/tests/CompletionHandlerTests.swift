import Foundation
import Testing

private final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@Suite struct CompletionHandlerTests {
    let service = TimetableService()

    @Test func oneHandlerGetsTheStationOrAnError() async {
        let (station, error) = await withCheckedContinuation { continuation in
            service.station(named: "Kraków Główny") { continuation.resume(returning: ($0, $1)) }
        }
        #expect(station == Station(code: "KRK", name: "Kraków Główny"))
        #expect(error == nil)

        let (missing, failure) = await withCheckedContinuation { continuation in
            service.station(named: "Kraków Zachód") { continuation.resume(returning: ($0, $1)) }
        }
        #expect(missing == nil)
        #expect(failure as? TimetableError == .unknownStation("Kraków Zachód"))
    }

    @Test func aPairOfHandlersCallsExactlyOneOfThem() async throws {
        let krakow = Station(code: "KRK", name: "Kraków Główny")
        let departures = try await withCheckedThrowingContinuation { continuation in
            service.departures(
                from: krakow,
                success: { continuation.resume(returning: $0) },
                failure: { continuation.resume(throwing: $0) })
        }
        #expect(departures.map(\.train) == ["IC 3510", "EIP 1300", "TLK 31100"])
        #expect(departures.map(\.platform) == [3, 1, 5])

        let nowhere = Station(code: "XXX", name: "Nigdzie")
        await #expect(throws: TimetableError.unknownStation("Nigdzie")) {
            try await withCheckedThrowingContinuation { continuation in
                service.departures(
                    from: nowhere,
                    success: { continuation.resume(returning: $0) },
                    failure: { continuation.resume(throwing: $0) })
            }
        }
    }

    @Test func aResultHandlerCarriesATypedError() async {
        let delay = await withCheckedContinuation { continuation in
            service.delay(of: "TLK 31100") { continuation.resume(returning: $0) }
        }
        #expect(delay == .success(.seconds(25 * 60)))

        let unknown = await withCheckedContinuation { continuation in
            service.delay(of: "IC 9999") { continuation.resume(returning: $0) }
        }
        #expect(unknown == .failure(.unknownTrain("IC 9999")))
    }

    @Test func handlersRunLaterAndExactlyOnce() {
        let calls = Calls()
        let done = DispatchGroup()
        for name in ["Kraków Główny", "Gdynia Główna", "Kraków Zachód"] {
            done.enter()
            service.station(named: name) { _, _ in
                calls.increment()
                done.leave()
            }
            done.enter()
            service.delay(of: "IC 3510") { _ in
                calls.increment()
                done.leave()
            }
        }
        // The service answers on its own queue: nothing has run inside the calls above
        // unless that queue was faster, and every handler runs exactly once in the end.
        // No deadline: on a busy machine the queue may come late; a handler that never
        // runs hangs the test, and build-docs reports it as hung.
        done.wait()
        #expect(calls.value == 6)
    }

    @Test func aCancelledRequestNeverAnswers() async {
        // The service answers on one serial queue: hold it with a first handler, so that
        // the request cancelled meanwhile is still waiting behind it.
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        service.station(named: "Kraków Główny") { _, _ in
            entered.signal()
            gate.wait()
        }
        entered.wait()
        let calls = Calls()
        let request = service.delay(of: "IC 3510") { _ in calls.increment() }
        request.cancel()
        #expect(request.isCancelled)
        gate.signal()
        // Queued after the cancelled request: once it answers, that one would have too.
        await withCheckedContinuation { continuation in
            service.station(named: "Gdynia Główna") { _, _ in continuation.resume() }
        }
        #expect(calls.value == 0)
    }

    @Test func departureTimesAreFormattedWithTheLocale() {
        let first = TimetableService.departures["KRK"]![0]
        #expect(first.time.clockTime(locale: Locale(identifier: "pl_PL")) == "6:12")
        #expect(Duration.seconds(7 * 60).minutes(locale: Locale(identifier: "pl")) == "7 minut")
    }
}
