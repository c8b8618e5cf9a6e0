import Foundation
import Testing

@Suite struct TripTests {
    private let departure = Date(timeIntervalSince1970: 1_000_000)
    private let arrival = Date(timeIntervalSince1970: 1_003_600)

    @Test func actualDepartureDefaultsToSchedule() {
        let trip = Trip(departure: departure, arrival: arrival)
        #expect(trip.actualDeparture == departure)
        #expect(trip.delay == 0)
        #expect(!trip.delayed)
        #expect(trip.duration == 3_600)
    }

    @Test func explicitActualDeparture() {
        let trip = Trip(
            departure: departure, arrival: arrival,
            actualDeparture: departure.addingTimeInterval(300))
        #expect(trip.delay == 300)
        #expect(trip.delayed)
        #expect(trip.duration == 3_600)
    }

    @Test func earlyDepartureIsNotDelayed() {
        let trip = Trip(
            departure: departure, arrival: arrival,
            actualDeparture: departure.addingTimeInterval(-60))
        #expect(trip.delay == -60)
        #expect(!trip.delayed)
    }

    @Test func delayIsComputedFromTheCurrentState() {
        var trip = Trip(departure: departure, arrival: arrival)
        for minutes in [1, 5, 0, -2, 90] {
            trip.actualDeparture = departure.addingTimeInterval(TimeInterval(minutes * 60))
            #expect(trip.delay == TimeInterval(minutes * 60))
            #expect(trip.delayed == (minutes > 0))
        }
    }

    @Test func lateFromOneFullMinuteOn() {
        var trip = Trip(departure: departure, arrival: arrival)
        for (seconds, late) in [(1, false), (29, false), (30, false), (59, false), (60, true), (61, true)] {
            trip.actualDeparture = departure.addingTimeInterval(TimeInterval(seconds))
            #expect(trip.delayed == late, "\(seconds) s")
        }
    }

    @Test func sampleTrip() {
        let trip = Trip.sample
        #expect(trip.duration == 95 * 60)
        #expect(trip.departure.timeIntervalSince1970 == 1_761_125_400)
        #expect(!trip.delayed)
    }
}
