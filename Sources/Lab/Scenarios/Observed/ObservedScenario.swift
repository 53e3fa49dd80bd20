import TerminalUI
import Tether

/// Scenario 5: `@Observed` values with will/did observations, a two-way binding, and the
/// handles that disable, obsolete and cleanse observations.
///
/// ←/→ change A, ↑/↓ change B; `b` binds them, `u` unbinds, `d` disables or re-enables the log
/// observations, `o` makes the tally obsolete (or starts a new one), `c` cleanses. Bound, the
/// observations are made in the view model's lifetime and end with the sheet. Leaky, their
/// closures capture the view model strongly: it never dies, and the ledger names the leak by
/// the observation's call site. Rotating changes nothing here; `r` still rotates the device.
extension ObservedViewModel: ScenarioModel {
    var keyHints: [KeyHint] {
        [KeyHint("←/→", "A"), KeyHint("↑/↓", "B"), KeyHint("b/u", "bind/unbind"), KeyHint("d/o/c", "log")]
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        switch key {
        case .left: changeA(by: -1)
        case .right: changeA(by: 1)
        case .up: changeB(by: 1)
        case .down: changeB(by: -1)
        case .character("b"): bind()
        case .character("u"): unbind()
        case .character("d"): toggleLogs()
        case .character("o"): obsoleteOrRestartTally()
        case .character("c"): cleanse()
        default: return false
        }
        return true
    }

    /// The keys, the values, and each observation with its kind and state.
    func statusLines(style: LabStyle) -> [Line] {
        let theme = style.theme
        let values = Line([
            TextSpan("A "), TextSpan("\(a)", style: theme.accent), TextSpan("   B "),
            TextSpan("\(b)", style: theme.accent),
            TextSpan(isBound ? "   A ⇄ B bound" : "   not bound", style: theme.dimmed),
            TextSpan("   tally of A's changes \(tallied)"),
        ])
        let keys = Line(
            "←/→ A  ↑/↓ B  b bind  u unbind  d disable/enable log  o obsolete tally  c cleanse",
            style: theme.dimmed)
        return [keys, values, Line("")] + observationRows(style: style)
    }

    /// At least the log's title and two lines.
    var bodyRows: Int { 3 }

    /// The will/did log.
    func renderBody(into buffer: inout Buffer, area: Rect, style: LabStyle) {
        let parts = area.rows([.fixed(1), .fill()])
        buffer.setString(
            "Will/did log", x: parts[0].x, y: parts[0].y, maxWidth: parts[0].width, style: style.theme.title)
        let lines = log.items.map {
            Line(
                $0, style: $0.hasPrefix("will") || $0.hasPrefix("did") ? style.theme.text : style.theme.accent
            )
        }
        LogView(lines.isEmpty ? [Line("change A or B", style: style.theme.dimmed)] : lines).render(
            into: &buffer, area: parts[1])
    }

    /// A header and one row per observation, in columns.
    private func observationRows(style: LabStyle) -> [Line] {
        let scope = mode == .bound ? "in lifetime" : "captures self"
        let tally =
            switch tallyState {
            case .live: "live, \(scope)"
            case .obsolete: "obsolete, held until c"
            case .purged: "purged (o: a new one)"
            }
        let rows = [
            ["A log", "A", kind(logA), "\(live(logA)), \(scope)"],
            ["B log", "B", kind(logB), "\(live(logB)), \(scope)"],
            ["A tally", "A", kind(self.tally), tally],
            ["binding", "A ⇄ B", isBound ? "did" : "—", isBound ? "bound" : "not bound"],
        ]
        let widths = [15, 7, 11]
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padded(toWidth: $1) }.joined() + cells[3]
        }
        return [Line(line(["observation", "on", "kind", "state"]), style: style.theme.title)]
            + rows.map { Line(line($0)) }
    }

    private func kind(_ observation: PropertyObservation?) -> String {
        observation.map { ".\($0.kind)" } ?? "—"
    }

    private func live(_ observation: PropertyObservation?) -> String {
        guard let observation else { return "none" }
        return observation.isEnabled ? "live" : "disabled"
    }
}
