import Foundation
import Testing

private let german = Locale(identifier: "de_DE")

private func wide(_ seconds: TimeInterval) -> String {
    Duration.seconds(seconds).formatted(
        .units(allowed: [.hours, .minutes], width: .wide).locale(german))
}

@Suite struct PresentationControlTests {
    private func filledView() -> TerminalView {
        var view = TerminalView()
        view.dateLabel.text = "D-1"
        view.departureLabel.text = "T-1"
        view.arrivalLabel.text = "T-2"
        view.durationLabel.text = "DUR"
        view.delayLabel.text = "LATE-XYZ"
        return view
    }

    @Test func renderDrawsAClosedBox() {
        let lines = filledView().render().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 7)
        #expect(Set(lines.map(\.count)).count == 1)
        #expect(lines.first == lines.last)
        #expect(lines.first?.first == "+")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("|") && $0.hasSuffix("|") })
        #expect(lines.allSatisfy { $0.last != " " })
        for text in ["D-1", "T-1", "T-2", "DUR", "LATE-XYZ"] {
            #expect(lines.contains { $0.contains(text) })
        }
    }

    @Test func hiddenLabelsGetNoLine() {
        var view = filledView()
        view.delayLabel.isHidden = true
        let text = view.render()
        #expect(!text.contains("LATE-XYZ"))
        #expect(text.split(separator: "\n").count == 6)
    }

    @Test func highlightingMarksOnlyThatLine() {
        var view = filledView()
        let plain = view.render().split(separator: "\n")
        view.departureLabel.isHighlighted = true
        let marked = view.render().split(separator: "\n")
        #expect(plain.count == marked.count)
        let plainLine = plain.first { $0.contains("T-1") }
        let markedLine = marked.first { $0.contains("T-1") }
        #expect(plainLine != nil)
        #expect(plainLine != markedLine)
        let arrivalPlain = plain.first { $0.contains("T-2") }?.trimmingCharacters(in: CharacterSet(charactersIn: "| "))
        let arrivalMarked = marked.first { $0.contains("T-2") }?.trimmingCharacters(
            in: CharacterSet(charactersIn: "| "))
        #expect(arrivalPlain == arrivalMarked)
    }

    @Test func controlShowsTheModel() {
        let model = TripViewModel(trip: .sample, locale: german)
        let control = TripPresentationControl()
        control.show(model)
        let view = control.view
        #expect(view.dateLabel.text == model.date)
        #expect(view.departureLabel.text == model.departure)
        #expect(view.arrivalLabel.text == model.arrival)
        #expect(view.durationLabel.text == model.duration)
        #expect(view.delayLabel.isHidden)
        #expect(!view.departureLabel.isHighlighted)
        #expect(view.render().contains(model.duration))
    }

    @Test func buttonsMoveTheDeparture() {
        let model = TripViewModel(trip: .sample, locale: german)
        let controller = TripController(model: model, control: TripPresentationControl())

        controller.increaseDelay()
        controller.increaseDelay()
        #expect(model.trip.delay == 120)
        var view = controller.control.view
        #expect(!view.delayLabel.isHidden)
        #expect(view.departureLabel.isHighlighted)
        #expect(view.delayLabel.text == model.delay.value)
        #expect(view.delayLabel.text.contains(wide(120)))
        #expect(view.render().contains(view.delayLabel.text))

        controller.decreaseDelay()
        view = controller.control.view
        #expect(model.trip.delay == 60)
        #expect(view.delayLabel.text.contains(wide(60)))

        controller.decreaseDelay()
        controller.decreaseDelay()
        view = controller.control.view
        #expect(model.trip.delay == -60)
        #expect(view.delayLabel.isHidden)
        #expect(!view.departureLabel.isHighlighted)
    }

    @Test func controlPicksUpAnExistingDelay() {
        let model = TripViewModel(trip: .sample, locale: german)
        model.changeActualDeparture(by: 600)
        let control = TripPresentationControl()
        control.show(model)
        #expect(!control.view.delayLabel.isHidden)
        #expect(control.view.departureLabel.isHighlighted)
        #expect(control.view.delayLabel.text.contains(wide(600)))
    }
}
