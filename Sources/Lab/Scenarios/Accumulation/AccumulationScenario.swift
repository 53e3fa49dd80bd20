import TerminalUI
import Tether

/// Scenario 7: a sheet that stores its subscription in a long-lived object's bag.
///
/// Teaches the leak no verdict sees: bound, the subscription is stored in the view model's
/// own bag and ends with the sheet; leaky, it is stored in the app session's bag. The view
/// model goes, the session stays, and every visit leaves one more subscription in it: after
/// three visits in a row the inspector lists the site as growing (the screen stack
/// checkpoints the ledger at each dismissal).
extension AccumulationViewModel: ScenarioModel {
    /// Where the subscription is stored, what the session's bag holds, what this sheet heard.
    func statusLines(style: LabStyle) -> [Line] {
        let theme = style.theme
        let held = sessionSubscriptions
        let store: TextSpan =
            switch mode {
            case .bound: TextSpan("this view model's bag", style: theme.accent)
            case .leaky:
                TextSpan("\(session.ownerID?.description ?? "the session")'s bag", style: style.leaky)
            }
        return [
            Line([TextSpan("subscription stored in "), store]),
            Line([
                TextSpan("the session's bag holds "),
                TextSpan("\(held)", style: held > 0 ? style.alarm : style.calm),
                TextSpan(" subscription\(held == 1 ? "" : "s") from these sheets"),
            ]),
            Line("rotations heard by this sheet: \(received)", style: theme.dimmed),
        ]
    }
}
