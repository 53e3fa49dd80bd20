import Foundation
import TerminalUI
import Tether

/// Scenario 2, from seed 001: three panels observing one `LiveData` of the orientation.
///
/// Teaches that a LiveData observer must be removed, and that a `DisposeBag` does it for you:
/// bound, each panel's bag is a child of the view model's and dismissing the sheet removes every
/// observer; leaky, the panels register with a bag nobody ends and their completions hold them,
/// so they outlive the sheet and keep receiving — three leaks named by the registration, and
/// zombie deliveries on every rotation.
enum LiveDataScenario {
    static let scenario = Scenario(
        id: "livedata", number: 2, title: "LiveData",
        summary: "three panels observe one LiveData of the orientation", seed: "seed 001",
        make: { mode, environment in LiveDataScreen(mode: mode, environment: environment) })
}

/// The sheet of scenario 2: a line per panel (the last value, values received) and the LiveData's
/// observer count. Main-actor isolated; held by the stack until dismissed.
@MainActor
final class LiveDataScreen: Screen {
    let lifecycle: Lifecycle
    let id = "livedata"
    let title = "LiveData"
    private let model: LiveDataViewModel

    init(mode: Mode, environment: LabEnvironment) {
        lifecycle = Lifecycle(ledger: environment.ledger)
        model = LiveDataViewModel(mode: mode, environment: environment, parent: lifecycle.lifetime)
    }

    var presentation: Presentation { .sheet(widthPercent: 84, heightPercent: 50) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " LiveData (\(model.mode.rawValue)) ", theme: theme)
        block.render(into: &buffer, area: area)
        let inner = block.inner(area).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let panels = model.panels.map { panel in
            Line([
                Span("Panel \(panel.name)   last ", style: .bold),
                Span(
                    (panel.last?.rawValue ?? "—").padding(toLength: 20, withPad: " ", startingAt: 0),
                    style: theme.accent),
                Span("received \(panel.received)"),
            ])
        }
        let explanation: [String] =
            switch model.mode {
            case .bound:
                [
                    "Bound: each panel registers with its own DisposeBag, a child of the view model's. "
                        + "Esc disposes them: every observer is removed."
                ]
            case .leaky:
                [
                    "Leaky: each panel registers with a bag the LiveData side keeps, and its completion "
                        + "holds the panel: nothing removes them. Esc, rotate: the panels still receive."
                ]
            }
        Paragraph(
            panels + [Line(""), Line("observers on the LiveData \(model.observerCount)"), Line("")]
                + explanation.map { Line($0, style: theme.dimmed) }, style: theme.text
        ).render(into: &buffer, area: inner)
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool { false }
}
