import Foundation
import Testing

// NSLock rather than Mutex: the thread sanitizer does not see Mutex on Linux.
private final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []

    func record(_ value: T) { lock.withLock { storage.append(value) } }
    var values: [T] { lock.withLock { storage } }
}

private let german = Locale(identifier: "de_DE")
private let french = Locale(identifier: "fr_FR")
private let utc = TimeZone(secondsFromGMT: 0)!

private func wide(_ seconds: TimeInterval, _ locale: Locale) -> String {
    Duration.seconds(seconds).formatted(
        .units(allowed: [.hours, .minutes], width: .wide).locale(locale))
}

@Suite struct TripViewModelTests {
    @Test func formatsTheConstantsInUTC() {
        let model = TripViewModel(trip: .sample, locale: german)
        let time = Date.FormatStyle(date: .omitted, time: .shortened, locale: german, timeZone: utc)
        #expect(model.departure == Trip.sample.departure.formatted(time))
        #expect(model.arrival == Trip.sample.arrival.formatted(time))
        #expect(model.departure.hasSuffix("9:30"))
        #expect(model.arrival.hasSuffix("11:05"))
        #expect(model.date == "22.10.2025")
        #expect(model.duration == "1 Std., 35 Min.")
    }

    @Test func punctualTripHasNoDelay() {
        let model = TripViewModel(trip: .sample, locale: german)
        #expect(model.delay.value == nil)
        #expect(model.delayed.value == false)
    }

    @Test func changingTheDepartureUpdatesTheDynamics() throws {
        let model = TripViewModel(trip: .sample, locale: german)
        model.changeActualDeparture(by: 300)
        #expect(model.trip.delay == 300)
        #expect(model.delayed.value)
        let text = try #require(model.delay.value)
        #expect(text.contains(wide(300, german)))

        model.changeActualDeparture(by: -300)
        #expect(model.delay.value == nil)
        #expect(!model.delayed.value)
    }

    @Test func lessThanAMinuteIsNotYetLate() {
        let model = TripViewModel(trip: .sample, locale: german)
        model.changeActualDeparture(by: 30)
        #expect(model.trip.delay == 30)
        #expect(!model.delayed.value)
        #expect(model.delay.value == nil)

        model.changeActualDeparture(by: 30)
        #expect(model.delayed.value)
        #expect(model.delay.value?.contains(wide(60, german)) == true)
    }

    @Test func earlyDepartureShowsNoDelay() {
        let model = TripViewModel(trip: .sample, locale: german)
        model.changeActualDeparture(by: -120)
        #expect(model.trip.delay == -120)
        #expect(model.delay.value == nil)
        #expect(!model.delayed.value)
    }

    @Test func delayTextFollowsTheLocale() throws {
        let model = TripViewModel(trip: .sample, locale: french)
        model.changeActualDeparture(by: 3_900)
        let text = try #require(model.delay.value)
        #expect(text.contains(wide(3_900, french)))
    }

    @Test func listenersHearAboutChanges() {
        let model = TripViewModel(trip: .sample, locale: german)
        let delayed = Recorder<Bool>()
        let texts = Recorder<String?>()
        model.delayed.bindAndFire { delayed.record($0) }
        model.delay.bind { texts.record($0) }

        model.changeActualDeparture(by: 60)
        model.changeActualDeparture(by: -60)

        #expect(delayed.values == [false, true, false])
        #expect(texts.values.count == 2)
        #expect(texts.values.first??.contains(wide(60, german)) == true)
        #expect(texts.values.last == .some(nil))
    }

    @Test func initialDelayIsFormattedToo() {
        let trip = Trip(
            departure: Trip.sample.departure, arrival: Trip.sample.arrival,
            actualDeparture: Trip.sample.departure.addingTimeInterval(600))
        let model = TripViewModel(trip: trip, locale: german)
        #expect(model.delayed.value)
        #expect(model.delay.value?.contains(wide(600, german)) == true)
    }
}
