import TerminalUI
import Tether

/// Scenario 1, from seed 000: a publisher and an async sequence of the orientation, side by side.
///
/// Teaches that a Combine subscription ends with its owner while a `Task` iterating an async
/// sequence does not: bound, the task is stored in the view model's lifetime and both end with
/// the sheet; leaky, the task is never stored and its loop keeps receiving after the sheet is
/// gone — a leak named by the task's call site, and a zombie delivery for every rotation.
enum OrientationScenario {
    static let scenario = Scenario(
        id: "orientation", number: 1, title: "Orientation",
        summary: "a publisher and an async sequence of the orientation", seed: "seed 000",
        make: { mode, environment in OrientationScreen(mode: mode, environment: environment) })
}

/// The sheet of scenario 1: "Portrait from publisher/sequence: yes/no" and the values each
/// received. Main-actor isolated; held by the stack until dismissed.
@MainActor
final class OrientationScreen: Screen {
    let lifecycle: Lifecycle
    let id = "orientation"
    let title = "Orientation"
    private let model: OrientationViewModel

    init(mode: Mode, environment: LabEnvironment) {
        lifecycle = Lifecycle(ledger: environment.ledger)
        model = OrientationViewModel(mode: mode, environment: environment, parent: lifecycle.lifetime)
    }

    var presentation: Presentation { .sheet(widthPercent: 84, heightPercent: 50) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " Orientation (\(model.mode.rawValue)) ", theme: theme)
        block.render(into: &buffer, area: area)
        let explanation: [String] =
            switch model.mode {
            case .bound:
                [
                    "Bound: the subscription and the loop's task are stored in the view model's lifetime. "
                        + "Dismiss, rotate: both have ended, nothing receives."
                ]
            case .leaky:
                [
                    "Leaky: the loop's Task is never stored. The view model deinits on Esc, "
                        + "but the loop keeps receiving: rotate after Esc and watch tasks and zombies."
                ]
            }
        Paragraph(
            [
                row("Portrait from publisher:", model.isPortraitFromPublisher, model.publisherValues, theme),
                row("Portrait from sequence: ", model.isPortraitFromSequence, model.sequenceValues, theme),
                Line(""),
            ] + explanation.map { Line($0, style: theme.dimmed) }, style: theme.text
        ).render(into: &buffer, area: block.inner(area).inset(horizontal: 1, vertical: 0))
    }

    private func row(_ label: String, _ isPortrait: Bool, _ values: Int, _ theme: Theme) -> Line {
        Line([
            Span(label + " "),
            Span(isPortrait ? "yes" : "no ", style: theme.accent),
            Span("   \(values) value\(values == 1 ? "" : "s") received", style: theme.dimmed),
        ])
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool { false }
}
