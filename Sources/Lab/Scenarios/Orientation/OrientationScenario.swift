import TerminalUI
import Tether

/// Scenario 1: a publisher and an async sequence of the orientation, side by side.
///
/// Teaches that a Combine subscription ends with its owner while a `Task` iterating an async
/// sequence does not: bound, the task is stored in the view model's lifetime and both end with
/// the sheet; leaky, the task is never stored and its loop keeps receiving after the sheet is
/// gone — a leak named by the task's call site, and a zombie delivery for every rotation.
extension OrientationViewModel: ScenarioModel {
    /// "Portrait from publisher/sequence: yes/no" and the values each received.
    func statusLines(style: LabStyle) -> [Line] {
        [
            row("Portrait from publisher:", isPortraitFromPublisher, publisherValues, style.theme),
            row("Portrait from sequence: ", isPortraitFromSequence, sequenceValues, style.theme),
        ]
    }

    private func row(_ label: String, _ isPortrait: Bool, _ values: Int, _ theme: Theme) -> Line {
        Line([
            TextSpan(label + " "),
            TextSpan(isPortrait ? "yes" : "no ", style: theme.accent),
            TextSpan("   \(values) value\(values == 1 ? "" : "s") received", style: theme.dimmed),
        ])
    }
}
