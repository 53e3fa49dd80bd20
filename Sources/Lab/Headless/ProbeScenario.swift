import TerminalUI
import Tether

/// A minimal scenario for trying the lab's shell before the real scenarios land, and for its
/// end-to-end tests (`tether-lab --probe` lists it as scenario 1).
///
/// Its view model subscribes to the device's orientation. Bound, the subscription is stored
/// in the view model's lifetime, a child of the sheet's: dismissing the sheet ends both, and
/// the counters return to where they were. Leaky, the subscription is kept in a set the view
/// model owns while its closure captures the view model strongly: a cycle that outlives the
/// sheet, which the ledger reports as a leak at the view model's call site.
public enum ProbeScenario {
    /// The probe, as scenario `number`.
    public static func scenario(number: Int = 1) -> Scenario {
        Scenario(
            id: "probe", number: number, title: "Probe", summary: "one subscription to the orientation",
            seed: "lab shell",
            make: { mode, environment in ProbeScreen(mode: mode, environment: environment) })
    }
}

@MainActor
private final class ProbeViewModel {
    let lifetime: Lifetime
    private(set) var orientation: Orientation
    private(set) var received = 0
    private var cancellables = Set<AnyCancellable>()

    init(mode: Mode, environment: LabEnvironment, parent: Lifetime) {
        lifetime = Lifetime(ledger: environment.ledger, parent: parent)
        orientation = environment.device.orientation
        lifetime.track(self)
        switch mode {
        case .bound:
            environment.device.orientationPublisher
                .sink { [weak self, weak environment] value in
                    self?.orientation = value
                    self?.received += 1
                    environment?.changed()
                }
                .store(in: lifetime)
        case .leaky:
            environment.device.orientationPublisher
                .sink { value in
                    self.orientation = value
                    self.received += 1
                    environment.changed()
                }
                .store(in: &cancellables)
        }
    }
}

@MainActor
private final class ProbeScreen: Screen {
    let lifecycle: Lifecycle
    let id = "probe"
    let title = "Probe"
    let mode: Mode
    private let model: ProbeViewModel

    init(mode: Mode, environment: LabEnvironment) {
        self.mode = mode
        lifecycle = Lifecycle(ledger: environment.ledger)
        model = ProbeViewModel(mode: mode, environment: environment, parent: lifecycle.lifetime)
    }

    var presentation: Presentation { .sheet(widthPercent: 70, heightPercent: 60) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " Probe (\(mode.rawValue)) ", theme: theme)
        block.render(into: &buffer, area: area)
        Paragraph(
            [
                Line([Span("orientation "), Span(model.orientation.rawValue, style: theme.accent)]),
                Line("values received \(model.received)"),
                Line(""),
                Line(
                    mode == .bound
                        ? "Bound: the subscription ends with this sheet."
                        : "Leaky: the subscription holds the view model after this sheet is gone.",
                    style: theme.dimmed),
            ], style: theme.text
        ).render(into: &buffer, area: block.inner(area).inset(horizontal: 1, vertical: 0))
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool { false }
}
