import TerminalUI
import Tether

/// Scenario 6: lifecycle states — created → started → resumed, and back when covered.
///
/// Teaches that work tied to a screen's lifecycle pauses while the screen is hidden and resumes
/// without duplicates: `n` covers the sheet; bound, the LiveData observer is paused and the
/// `repeatOnLifecycle(.started)` ticker stopped, and on return the observer receives the latest
/// orientation exactly once. Leaky, the observer has no owner and the ticker is a plain task:
/// both keep going while covered and after the sheet is dismissed.
extension LifecycleViewModel: ScenarioContent {
    var keyHints: [KeyHint] { [KeyHint("n", "cover")] }

    /// `n` presents the cover: another screen on top, as on Android when one is pushed, which
    /// stops this one (created), not merely pauses it (started) as a transient sheet such as help
    /// does. The stack only knows the sheet states, so the screen moves itself; dismissing the
    /// cover resumes it.
    func handle(_ key: Key, context: ScreenContext) -> Bool {
        guard key == .character("n") else { return false }
        willCover()
        context.present(CoverScreen(ledger: lifecycle.lifetime.ledger)) { [weak self] _ in self?.didReturn() }
        lifecycle.move(to: .created)
        return true
    }

    /// The screen's state, the observer's, what it received, and the ticker.
    func statusLines(style: LabStyle) -> [Line] {
        let theme = style.theme
        let observer = isObserverActive ? (mode == .leaky ? "never pauses (no owner)" : "active") : "paused"
        return [
            Line([TextSpan("screen "), TextSpan(lifecycle.state.description, style: theme.accent)]),
            Line([
                TextSpan("observer "), TextSpan(observer, style: theme.accent),
                TextSpan("   paused in the ledger \(pausedInLedger)", style: theme.dimmed),
            ]),
            Line([
                TextSpan("values received \(received)   last "),
                TextSpan(last?.rawValue ?? "—", style: theme.accent),
            ]),
            Line("while covered \(receivedWhileCovered)   on return \(receivedOnReturn)"),
            Line([
                TextSpan("ticker "), TextSpan(isTicking ? "running" : "stopped", style: theme.accent),
                TextSpan("   ticks \(ticks)"),
            ]),
        ]
    }

    /// At least three lines of history.
    var bodyRows: Int { 3 }

    /// What happened, newest last.
    func renderBody(into buffer: inout Buffer, area: Rect, style: LabStyle) {
        LogView(history.items.map { Line("· " + $0) }, style: style.theme.dimmed).render(
            into: &buffer, area: area)
    }
}

/// The sheet `n` presents over the lifecycle sheet: another screen on top, which stops it. Binds
/// nothing; `Esc` dismisses it.
@MainActor
final class CoverScreen: Screen {
    let lifecycle: Lifecycle
    let id = "cover"
    let title = "Cover"

    init(ledger: Ledger) {
        lifecycle = Lifecycle(ledger: ledger)
    }

    /// Small, so the lifecycle sheet's status stays in sight beneath it; at 80×24 still tall
    /// enough for its three lines of text.
    var presentation: Presentation { .sheet(widthPercent: 56, heightPercent: 24, minHeight: 5) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let inner = Block(title: " Cover ", theme: theme).render(into: &buffer, area: area, padding: 1)
        Paragraph(
            [
                Line("Another screen is on top: the lifecycle sheet is stopped."),
                Line("Rotate with r, then Esc to return.", style: theme.dimmed),
            ], style: theme.text
        ).render(into: &buffer, area: inner)
    }
}
