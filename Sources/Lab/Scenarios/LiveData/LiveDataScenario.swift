import TerminalUI
import Tether

/// Scenario 2: three panels observing one `LiveData` of the orientation.
///
/// Teaches that a LiveData observer must be removed, and that a `DisposeBag` does it for you:
/// bound, each panel's bag is a child of the view model's and dismissing the sheet removes every
/// observer; leaky, the panels register with a bag nobody ends and their completions hold them,
/// so they outlive the sheet and keep receiving — three leaks named by the registration, and
/// zombie deliveries on every rotation.
extension LiveDataViewModel: ScenarioModel {
    /// A line per panel (the last value, values received) and the LiveData's observer count.
    func statusLines(style: LabStyle) -> [Line] {
        let panels = panels.map { panel in
            Line([
                TextSpan("Panel \(panel.name)   last ", style: .bold),
                TextSpan(
                    (panel.last?.rawValue ?? "—").padded(toWidth: 20),
                    style: style.theme.accent),
                TextSpan("received \(panel.received)"),
            ])
        }
        return panels + [Line(""), Line("observers on the LiveData \(observerCount)")]
    }
}
