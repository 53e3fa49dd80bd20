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
        var intro: [Line] = [
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
        // The list comes first: with little room the spacer goes, then the intro's first line.
        var introHeight = wrappedHeight(intro, width: inner.width)
        var spacer = 1
        if introHeight + spacer + scenarios.count > inner.height { spacer = 0 }
        if introHeight + spacer + scenarios.count > inner.height, intro.count > 1 {
            intro.removeFirst()
            introHeight = wrappedHeight(intro, width: inner.width)
        }
        introHeight = min(inner.height, introHeight)
        let parts = inner.rows([.fixed(introHeight), .fixed(spacer), .fill()])
        Paragraph(intro, style: theme.dimmed).render(into: &buffer, area: parts[0])
        guard scenarios.isEmpty == false else {
            Paragraph("No scenarios yet.", style: theme.warning).render(into: &buffer, area: parts[2])
            return
        }
        var list = ListView([], style: theme.text, highlightStyle: theme.highlight)
        let rowWidth = parts[2].width - CharacterWidth.of(list.highlightSymbol)
        let titleWidth = scenarios.map { CharacterWidth.of($0.title) }.max() ?? 0
        list.items = scenarios.map {
            HomeScreen.row(for: $0, titleWidth: titleWidth, width: rowWidth, theme: theme)
        }
        list.render(into: &buffer, area: parts[2], state: &selection)
    }

    private func wrappedHeight(_ lines: [Line], width: Int) -> Int {
        lines.reduce(0) { $0 + Paragraph.wrap($1, width: width).count }
    }

    /// One row of the list, fitted to `width` columns: number, title (padded to `titleWidth` so
    /// the summaries line up), summary and seed tag. When they do not all fit, the seed tag goes
    /// first, then the summary is cut at a word boundary and ends with an ellipsis.
    static func row(for scenario: Scenario, titleWidth: Int, width: Int, theme: Theme) -> Line {
        let title =
            scenario.title
            + String(repeating: " ", count: max(0, titleWidth - CharacterWidth.of(scenario.title)))
        let head = [Span("\(scenario.number)  ", style: theme.accent), Span(title, style: .bold)]
        let summary = "  " + scenario.summary
        let seed = "  (\(scenario.seed))"
        let room = width - Line(head).width
        if CharacterWidth.of(summary) + CharacterWidth.of(seed) <= room {
            return Line(head + [Span(summary, style: theme.text), Span(seed, style: theme.dimmed)])
        }
        let ellipsis = theme.lines == .ascii ? "..." : "…"
        let shown = "  " + truncated(scenario.summary, toWidth: room - 2, ellipsis: ellipsis)
        return Line(head + [Span(shown, style: theme.text)])
    }

    /// `text` if it fits in `width` columns; otherwise as many whole words as fit with
    /// `ellipsis` after them (cut mid-word only when not even the first word fits).
    static func truncated(_ text: String, toWidth width: Int, ellipsis: String) -> String {
        guard CharacterWidth.of(text) > width else { return text }
        let room = width - CharacterWidth.of(ellipsis)
        guard room > 0 else { return "" }
        var kept = ""
        for word in text.split(separator: " ") {
            let candidate = kept.isEmpty ? String(word) : kept + " " + word
            guard CharacterWidth.of(candidate) <= room else { break }
            kept = candidate
        }
        if kept.isEmpty {
            for character in text {
                guard CharacterWidth.of(kept + String(character)) <= room else { break }
                kept.append(character)
            }
        }
        while let last = kept.last, ",;:".contains(last) { kept.removeLast() }
        return kept + ellipsis
    }

    var keyHints: [KeyHint] { [] }
}
