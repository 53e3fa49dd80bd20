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

/// The sheet of scenario 2: a box per panel (last value, values received) and the LiveData's
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

    var presentation: Presentation { .sheet(widthPercent: 84, heightPercent: 64) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " LiveData (\(model.mode.rawValue)) ", theme: theme)
        block.render(into: &buffer, area: area)
        let inner = block.inner(area).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let rows = inner.rows([.fixed(4), .fixed(1), .fill()])
        let boxes = rows[0].columns(model.panels.map { _ in .fill() }, spacing: 1)
        for (panel, box) in zip(model.panels, boxes) {
            let frame = Block(title: " Panel \(panel.name) ", theme: theme)
            frame.render(into: &buffer, area: box)
            Paragraph(
                [
                    Line([Span("last "), Span(panel.last?.rawValue ?? "—", style: theme.accent)]),
                    Line("received \(panel.received)"),
                ], style: theme.text, wrap: false
            ).render(into: &buffer, area: frame.inner(box).inset(horizontal: 1, vertical: 0))
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
            [Line("observers on the LiveData \(model.observerCount)"), Line("")]
                + explanation.map { Line($0, style: theme.dimmed) }, style: theme.text
        ).render(into: &buffer, area: rows[2])
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool { false }
}
