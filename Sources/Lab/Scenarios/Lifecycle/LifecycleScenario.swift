import TerminalUI
import Tether

/// Scenario 6: lifecycle states — created → started → resumed, and back when covered.
///
/// Teaches that work tied to a screen's lifecycle pauses while the screen is hidden and resumes
/// without duplicates: `n` covers the sheet; bound, the LiveData observer is paused and the
/// `repeatOnLifecycle(.started)` ticker stopped, and on return the observer receives the latest
/// orientation exactly once. Leaky, the observer has no owner and the ticker is a plain task:
/// both keep going while covered and after the sheet is dismissed.
enum LifecycleScenario {
    static let scenario = Scenario(
        id: "lifecycle", number: 6, title: "Lifecycle",
        summary: "an observer and a ticker that pause while the screen is covered", seed: "design",
        make: { mode, environment in LifecycleScreen(mode: mode, environment: environment) })
}

/// The sheet of scenario 6: the observer's state and values, the ticker, and a short history.
/// `n` presents the cover. Main-actor isolated; held by the stack until dismissed.
@MainActor
final class LifecycleScreen: Screen {
    let lifecycle: Lifecycle
    let id = "lifecycle"
    let title = "Lifecycle"
    private let model: LifecycleViewModel
    private let ledger: Ledger

    init(mode: Mode, environment: LabEnvironment) {
        ledger = environment.ledger
        lifecycle = Lifecycle(ledger: environment.ledger)
        model = LifecycleViewModel(mode: mode, environment: environment, lifecycle: lifecycle)
    }

    var presentation: Presentation { .sheet(widthPercent: 76, heightPercent: 76) }

    var keyHints: [KeyHint] { [KeyHint("n", "cover")] }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        guard key == .character("n") else { return false }
        let cover = CoverScreen(ledger: ledger)
        let host: any Screen =
            if let lab = (context.screen as? HostedScreen)?.lab {
                HostedScreen(cover, role: .scenario(mode: model.mode), lab: lab)
            } else {
                cover
            }
        model.willCover()
        context.present(host) { [weak model] _ in model?.didReturn() }
        // The cover stands for navigating to another screen: as on Android when one is pushed on
        // top, this screen is stopped (created), not merely paused (started) as under a transient
        // sheet such as help. The stack only knows the sheet states, so the screen moves itself;
        // dismissing the cover resumes it.
        lifecycle.move(to: .created)
        return true
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " Lifecycle (\(model.mode.rawValue)) ", theme: theme)
        block.render(into: &buffer, area: area)
        let inner = block.inner(area).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let observer =
            model.isObserverActive
            ? (model.mode == .leaky ? "never pauses (no owner)" : "active") : "paused"
        let explanation: [String] =
            switch model.mode {
            case .bound:
                [
                    "Bound: observed with the screen as lifecycle owner; the ticker in repeatOnLifecycle. "
                        + "n covers the screen: both pause. Rotate, Esc: the latest value arrives once."
                ]
            case .leaky:
                [
                    "Leaky: observed without an owner, with a bag the lab keeps; the ticker a plain task. "
                        + "n: both keep going while covered, and after Esc."
                ]
            }
        let status: [Line] = [
            Line([Span("screen "), Span(lifecycle.state.description, style: theme.accent)]),
            Line([
                Span("observer "), Span(observer, style: theme.accent),
                Span("   paused in the ledger \(model.pausedInLedger)", style: theme.dimmed),
            ]),
            Line([
                Span("values received \(model.received)   last "),
                Span(model.last?.rawValue ?? "—", style: theme.accent),
            ]),
            Line("while covered \(model.receivedWhileCovered)   on return \(model.receivedOnReturn)"),
            Line([
                Span("ticker "), Span(model.isTicking ? "running" : "stopped", style: theme.accent),
                Span("   ticks \(model.ticks)"),
            ]),
        ]
        let notes = explanation.map { Line($0, style: theme.dimmed) }
        let notesHeight = notes.reduce(0) { $0 + Paragraph.wrap($1, width: inner.width).count }
        // Status on top, the explanation at the bottom, the history between (where the cover goes).
        let rows = inner.rows([.fixed(status.count), .fixed(1), .fill(), .fixed(notesHeight)])
        Paragraph(status, style: theme.text, wrap: false).render(into: &buffer, area: rows[0])
        LogView(model.history.map { Line("· " + $0) }, style: theme.dimmed).render(
            into: &buffer, area: rows[2])
        Paragraph(notes, style: theme.text).render(into: &buffer, area: rows[3])
    }
}

/// The sheet `n` presents over the lifecycle screen: another screen on top, which stops it. Binds
/// nothing; `Esc` dismisses it.
@MainActor
final class CoverScreen: Screen {
    let lifecycle: Lifecycle
    let id = "cover"
    let title = "Cover"

    init(ledger: Ledger) {
        lifecycle = Lifecycle(ledger: ledger)
    }

    /// Small, so the lifecycle screen's status stays in sight beneath it.
    var presentation: Presentation { .sheet(widthPercent: 56, heightPercent: 24) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " Cover ", theme: theme)
        block.render(into: &buffer, area: area)
        Paragraph(
            [
                Line("Another screen is on top: the lifecycle screen is stopped."),
                Line("Rotate with r, then Esc to return.", style: theme.dimmed),
            ], style: theme.text
        ).render(into: &buffer, area: block.inner(area).inset(horizontal: 1, vertical: 0))
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool { false }
}
