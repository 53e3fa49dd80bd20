import TerminalUI
import Tether

/// The one sheet every scenario is presented in: a bordered box titled with the scenario and
/// the mode it was presented in, the pattern it teaches and where that comes from, the
/// explanation for the mode, then the view model's status lines and body.
///
/// The sheet's lifecycle is driven by the stack; the view model's bindings hang off it, so
/// dismissing the sheet ends them (bound mode) or shows what survives (leaky mode). Keys go to
/// the view model with the lab's ledger current, so what they bind is recorded there (the
/// application draws a frame after every key).
/// Main-actor isolated; held by the stack until dismissed.
@MainActor
final class ScenarioSheet: Screen {
    let scenario: Scenario
    let mode: Mode
    let lifecycle: Lifecycle
    let content: any ScenarioContent
    private unowned let environment: LabEnvironment

    /// Makes the sheet and its view model; call inside ``LabEnvironment/recording(_:)``.
    init(_ scenario: Scenario, mode: Mode, environment: LabEnvironment) {
        self.scenario = scenario
        self.mode = mode
        self.environment = environment
        lifecycle = Lifecycle(ledger: environment.ledger)
        content = scenario.make(mode, environment, lifecycle)
    }

    var id: String { scenario.id }
    var title: String { scenario.title }
    var presentation: Presentation { .sheet(widthPercent: 96, heightPercent: 92) }
    var keyHints: [KeyHint] { content.keyHints }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        environment.recording { content.handle(key, context: context) }
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let style = LabStyle(theme: theme)
        let inner = Block(title: " \(scenario.title) (\(mode.rawValue)) ", theme: theme).render(
            into: &buffer, area: area, padding: 1)
        guard !inner.isEmpty else { return }
        let status = content.statusLines(style: style)
        var head = [
            Line([
                TextSpan(scenario.pattern, style: theme.accent),
                TextSpan(" — \(scenario.origin)", style: theme.dimmed),
            ]),
            Line(scenario.explanation(for: mode), style: mode == .bound ? theme.dimmed : theme.warning),
        ]
        // Short of room, the status and the body stay and the head goes, the pattern's line first:
        // the keys still teach.
        let body = content.bodyRows > 0 ? 1 + content.bodyRows : 0
        var top = head + [""] + status
        while !head.isEmpty, Paragraph.height(of: top, width: inner.width) + body > inner.height {
            head.removeFirst()
            top = head.isEmpty ? status : head + [""] + status
        }
        let parts = inner.rows([.fixed(Paragraph.height(of: top, width: inner.width)), .fixed(1), .fill()])
        Paragraph(top, style: theme.text).render(into: &buffer, area: parts[0])
        content.renderBody(into: &buffer, area: parts[2], style: style)
    }
}
