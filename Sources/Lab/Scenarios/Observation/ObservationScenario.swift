import TerminalUI
import Tether

/// Scenario 8: the device's orientation watched with `Observations`, Swift's async sequence
/// of an `@Observable` model.
///
/// Teaches where the unwrap of a weak `self` belongs: bound, inside the loop
/// (`forEach(boundTo:)` with a `[weak self]` body), so the view model goes with the sheet and
/// the loop ends with it; leaky, `guard let self` before the loop, which keeps the view model
/// alive for as long as the loop runs — forever. The ledger reports it leaked, still alive, at
/// the loop's call site, and every later rotation as a zombie delivery.
extension ObservationViewModel: ScenarioModel {
    /// What the loop last heard, how many values, and how the loop holds the view model.
    func statusLines(style: LabStyle) -> [Line] {
        let theme = style.theme
        guard isAvailable else {
            return [
                Line("Observations needs macOS 26 or iOS 26: nothing is watched here.", style: theme.dimmed)
            ]
        }
        let heard = Line([
            TextSpan("Orientation from Observations: "),
            TextSpan(orientation?.rawValue ?? "—", style: theme.accent),
            TextSpan("   \(received) value\(received == 1 ? "" : "s") received", style: theme.dimmed),
        ])
        let holds =
            mode == .bound
            ? "The loop holds the view model only while it applies a value."
            : "The loop holds the view model from guard let self until the loop ends: never."
        return [heard, Line(holds, style: theme.dimmed)]
    }
}
