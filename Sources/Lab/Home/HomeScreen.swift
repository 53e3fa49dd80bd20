import TerminalUI
import Tether

/// Home: the scenarios, one a row. ↑/↓ or j/k move the selection, Enter presents the selected
/// one, a digit presents that scenario directly.
///
/// Owns nothing that binds, so the counters at home are the lab's baseline. Main-actor
/// isolated; lives at the bottom of the stack until the lab quits.
@MainActor
final class HomeScreen: Screen {
    let lifecycle: Lifecycle
    let id = "home"
    let title = "Home"
    let scenarios: [Scenario]
    private unowned let environment: LabEnvironment
    private var selection: ListState
    /// Called with the scenario to present.
    var onPresent: (@MainActor (Scenario) -> Void)?

    init(scenarios: [Scenario], environment: LabEnvironment) {
        self.scenarios = scenarios
        self.environment = environment
        lifecycle = Lifecycle(ledger: environment.ledger)
        selection = ListState(selected: scenarios.isEmpty ? nil : 0)
    }

    /// The selected row, if any.
    var selectedIndex: Int? { selection.selected }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        switch key {
        case .up, .character("k"):
            selection.move(by: -1, count: scenarios.count)
        case .down, .character("j"):
            selection.move(by: 1, count: scenarios.count)
        case .home:
            selection.move(by: -scenarios.count, count: scenarios.count)
        case .end:
            selection.move(by: scenarios.count, count: scenarios.count)
        case .enter:
            guard let i = selection.selected, scenarios.indices.contains(i) else { return false }
            onPresent?(scenarios[i])
        case .character(let c):
            guard let digit = c.wholeNumberValue, let i = scenarios.firstIndex(where: { $0.number == digit })
            else {
                return false
            }
            selection.selected = i
            onPresent?(scenarios[i])
        default:
            return false
        }
        context.requestRedraw()
        return true
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " Scenarios ", theme: theme)
        block.render(into: &buffer, area: area)
        let inner = block.inner(area).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let next = environment.mode
        let intro: [Line] = [
            Line("Present a scenario as a sheet, rotate with r, dismiss with Esc, and watch the inspector."),
            Line([
                Span("The next sheet is presented "),
                Span(next.rawValue, style: next == .leaky ? LabStyle(theme: theme).leaky : theme.accent),
                Span(
                    next == .bound
                        ? ": its bindings end with it (m for leaky)."
                        : ": something outlives it (m for bound)."),
            ]),
        ]
        let introHeight = min(
            inner.height, intro.reduce(0) { $0 + Paragraph.wrap($1, width: inner.width).count })
        let parts = inner.rows([.fixed(introHeight), .fixed(1), .fill()])
        Paragraph(intro, style: theme.dimmed).render(into: &buffer, area: parts[0])
        guard scenarios.isEmpty == false else {
            Paragraph("No scenarios yet.", style: theme.warning).render(into: &buffer, area: parts[2])
            return
        }
        let items = scenarios.map { s in
            Line([
                Span("\(s.number)  ", style: theme.accent),
                Span(s.title, style: .bold),
                Span("  \(s.summary)", style: theme.text),
                Span("  (\(s.seed))", style: theme.dimmed),
            ])
        }
        ListView(items, style: theme.text, highlightStyle: theme.highlight)
            .render(into: &buffer, area: parts[2], state: &selection)
    }

    var keyHints: [KeyHint] { [] }
}
