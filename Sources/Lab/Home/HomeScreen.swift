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

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        if let step = key.navigationStep(page: scenarios.count, limit: scenarios.count) {
            selection.move(by: step, count: scenarios.count)
            return true
        }
        switch key {
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
        return true
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let inner = Block(title: " Scenarios ", theme: theme).render(into: &buffer, area: area, padding: 1)
        guard !inner.isEmpty else { return }
        let next = environment.mode
        var intro: [Line] = [
            Line("Present a scenario as a sheet, rotate with r, dismiss with Esc, and watch the inspector."),
            Line([
                TextSpan("The next sheet is presented "),
                TextSpan(next.rawValue, style: next == .leaky ? LabStyle(theme: theme).leaky : theme.accent),
                TextSpan(
                    next == .bound
                        ? ": its bindings end with it (m for leaky)."
                        : ": something outlives it (m for bound)."),
            ]),
        ]
        // The list comes first: with little room the spacer goes, then the intro's first line, then
        // the mode's line (the header shows the mode too).
        var introHeight = Paragraph.height(of: intro, width: inner.width)
        var spacer = 1
        if introHeight + spacer + scenarios.count > inner.height { spacer = 0 }
        while introHeight + spacer + scenarios.count > inner.height, !intro.isEmpty {
            intro.removeFirst()
            introHeight = Paragraph.height(of: intro, width: inner.width)
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
        let columns = (
            title: scenarios.map { CharacterWidth.of($0.title) }.max() ?? 0,
            pattern: scenarios.map { CharacterWidth.of($0.pattern) }.max() ?? 0
        )
        list.items = scenarios.map {
            HomeScreen.row(for: $0, columns: columns, width: rowWidth, theme: theme)
        }
        list.render(into: &buffer, area: parts[2], state: &selection)
    }

    /// One row of the list, fitted to `width` columns: number, title and pattern (padded to the
    /// longest of each, so the summaries line up), summary, and where the pattern comes from.
    /// When they do not all fit, the origin goes first, then the summary is cut at a word
    /// boundary and ends with an ellipsis.
    static func row(for scenario: Scenario, columns: (title: Int, pattern: Int), width: Int, theme: Theme)
        -> Line
    {
        let head = [
            TextSpan("\(scenario.number)  ", style: theme.accent),
            TextSpan(scenario.title.padded(toWidth: columns.title), style: .bold),
            TextSpan("  " + scenario.pattern.padded(toWidth: columns.pattern), style: theme.accent),
        ]
        let summary = "  " + scenario.summary
        let origin = "  (\(scenario.origin))"
        let room = width - Line(head).width
        if CharacterWidth.of(summary) + CharacterWidth.of(origin) <= room {
            return Line(head + [TextSpan(summary, style: theme.text), TextSpan(origin, style: theme.dimmed)])
        }
        let ellipsis = theme.lines == .ascii ? "..." : "…"
        let shown = "  " + truncated(scenario.summary, toWidth: room - 2, ellipsis: ellipsis)
        return Line(head + [TextSpan(shown, style: theme.text)])
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
}
