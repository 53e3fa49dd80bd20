import TerminalUI
import Tether

/// Scenario 5, from seed 004: `@Observed` values with will/did observations, a two-way binding,
/// and the handles that disable, obsolete and cleanse observations.
///
/// ←/→ change A, ↑/↓ change B; `b` binds them, `u` unbinds, `d` disables or re-enables the log
/// observations, `o` makes the tally obsolete (or starts a new one), `c` cleanses. Bound, the
/// observations are made in the view model's lifetime and end with the sheet. Leaky, their
/// closures capture the view model strongly: it never dies, and the ledger names the leak by
/// the observation's call site. Rotating changes nothing here; `r` still rotates the device.
public enum ObservedScenario {
    public static let id = "observed"

    /// The scenario as number `number` (5 in the lab).
    public static func scenario(number: Int = 5) -> Scenario {
        Scenario(
            id: id, number: number, title: "Observed",
            summary: "will/did, bind, disable, obsolete, cleanse",
            seed: "seed 004",
            make: { mode, environment in ObservedScreen(mode: mode, environment: environment) })
    }
}

/// The Observed sheet: the two values, the observations and their kinds, the log.
@MainActor
final class ObservedScreen: Screen {
    let lifecycle: Lifecycle
    let id = ObservedScenario.id
    let title = "Observed"
    let mode: Mode
    private let model: ObservedViewModel

    init(mode: Mode, environment: LabEnvironment) {
        self.mode = mode
        lifecycle = Lifecycle(ledger: environment.ledger)
        model = ObservedViewModel(mode: mode, environment: environment, parent: lifecycle.lifetime)
    }

    var presentation: Presentation { .sheet(widthPercent: 96, heightPercent: 92) }

    var keyHints: [KeyHint] {
        [KeyHint("←/→", "A"), KeyHint("↑/↓", "B"), KeyHint("b/u", "bind/unbind"), KeyHint("d/o/c", "log")]
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        switch key {
        case .left: model.changeA(by: -1)
        case .right: model.changeA(by: 1)
        case .up: model.changeB(by: 1)
        case .down: model.changeB(by: -1)
        case .character("b"): model.bind()
        case .character("u"): model.unbind()
        case .character("d"): model.toggleLogs()
        case .character("o"): model.obsoleteOrRestartTally()
        case .character("c"): model.cleanse()
        default: return false
        }
        context.requestRedraw()
        return true
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " Observed (\(mode.rawValue)) ", theme: theme)
        block.render(into: &buffer, area: area)
        let inner = block.inner(area).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let head = headLines(theme: theme)
        let headHeight = min(
            inner.height, head.reduce(0) { $0 + Paragraph.wrap($1, width: inner.width).count })
        let rows = observationRows()
        let parts = inner.rows([.fixed(headHeight), .fixed(rows.count + 1), .fixed(1), .fill()])
        Paragraph(head, style: theme.text).render(into: &buffer, area: parts[0])
        Table(
            header: ["observation", "on", "kind", "state"], rows: rows,
            widths: [.fixed(14), .fixed(6), .fixed(10), .fill()], headerStyle: theme.title, style: theme.text
        ).render(into: &buffer, area: parts[1])
        buffer.setString(
            "Will/did log", x: parts[2].x, y: parts[2].y, maxWidth: parts[2].width, style: theme.title)
        let log = model.log.map {
            Line($0, style: $0.hasPrefix("will") || $0.hasPrefix("did") ? theme.text : theme.accent)
        }
        LogView(log.isEmpty ? [Line("change A or B", style: theme.dimmed)] : log).render(
            into: &buffer, area: parts[3])
    }

    private func headLines(theme: Theme) -> [Line] {
        let explanation =
            mode == .bound
            ? Line(
                "Bound: observe(_:in: lifetime) with [weak self] — the observations end with this sheet.",
                style: theme.dimmed)
            : Line(
                "Leaky: the observation closures capture self, and A and B are self's — the view model "
                    + "never dies (leak).", style: LabStyle(theme: theme).leaky)
        return [
            explanation,
            Line(
                "←/→ A  ↑/↓ B  b bind  u unbind  d disable/enable log  o obsolete tally  c cleanse",
                style: theme.dimmed),
            Line([
                Span("A "), Span("\(model.a)", style: theme.accent), Span("   B "),
                Span("\(model.b)", style: theme.accent),
                Span(model.isBound ? "   A ⇄ B bound" : "   not bound", style: theme.dimmed),
                Span("   tally of A's changes \(model.tallied)"),
            ]),
        ]
    }

    private func observationRows() -> [[String]] {
        let scope = mode == .bound ? "in lifetime" : "captures self"
        var rows: [[String]] = [
            ["A log", "A", kind(model.logA), "\(live(model.logA)), \(scope)"],
            ["B log", "B", kind(model.logB), "\(live(model.logB)), \(scope)"],
        ]
        let tallyState =
            switch model.tallyState {
            case .live: "live, \(scope)"
            case .obsolete: "obsolete, held until c"
            case .purged: "purged (o: a new one)"
            }
        rows.append(["A tally", "A", kind(model.tally), tallyState])
        rows.append(["binding", "A ⇄ B", model.isBound ? "did" : "—", model.isBound ? "bound" : "not bound"])
        return rows
    }

    private func kind(_ observation: PropertyObservation?) -> String {
        guard let observation else { return "—" }
        return ".\(observation.kind)"
    }

    private func live(_ observation: PropertyObservation?) -> String {
        guard let observation else { return "none" }
        return observation.isEnabled ? "live" : "disabled"
    }
}
