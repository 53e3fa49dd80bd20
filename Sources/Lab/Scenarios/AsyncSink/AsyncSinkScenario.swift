import TerminalUI
import Tether

/// Scenario 4, from seed 003: an `asyncSink` whose bodies are slow async work, and what
/// cancelling it cancels.
///
/// Each rotation starts three seconds of lab-time work, a progress bar, under the overlap
/// policy `p` cycles. Bound, Tether's `asyncSink` cancels every running body when the sheet is
/// dismissed: every bar stops. Leaky, the seed's own asyncSink cancels only the last task it
/// started: rotate twice and dismiss, and all but the last keep running — a leak named by the
/// sink's call site, each progress step after dismissal a zombie delivery.
public enum AsyncSinkScenario {
    public static let id = "asyncsink"

    /// The scenario as number `number` (4 in the lab).
    public static func scenario(number: Int = 4) -> Scenario {
        Scenario(
            id: id, number: number, title: "asyncSink",
            summary: "slow work per rotation; what cancelling cancels",
            seed: "seed 003",
            make: { mode, environment in AsyncSinkScreen(mode: mode, environment: environment) })
    }
}

/// The asyncSink sheet: the policy, one progress bar per rotation's work.
@MainActor
final class AsyncSinkScreen: Screen {
    let lifecycle: Lifecycle
    let id = AsyncSinkScenario.id
    let title = "asyncSink"
    let mode: Mode
    private let model: AsyncSinkViewModel

    init(mode: Mode, environment: LabEnvironment) {
        self.mode = mode
        lifecycle = Lifecycle(ledger: environment.ledger)
        model = AsyncSinkViewModel(mode: mode, environment: environment, parent: lifecycle.lifetime)
    }

    var presentation: Presentation { .sheet(widthPercent: 96, heightPercent: 92) }

    var keyHints: [KeyHint] { [KeyHint("p", "overlap policy")] }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        guard key == .character("p") else { return false }
        model.cycleOverlap()
        context.requestRedraw()
        return true
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " asyncSink (\(mode.rawValue)) ", theme: theme)
        block.render(into: &buffer, area: area)
        let inner = block.inner(area).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let head = headLines(theme: theme)
        let headHeight = min(
            inner.height, head.reduce(0) { $0 + Paragraph.wrap($1, width: inner.width).count })
        let parts = inner.rows([.fixed(headHeight), .fixed(1), .fill()])
        Paragraph(head, style: theme.text).render(into: &buffer, area: parts[0])
        let bars = parts[2]
        guard !model.jobs.isEmpty else {
            Paragraph("Rotate (r) to start work.", style: theme.dimmed).render(into: &buffer, area: bars)
            return
        }
        // As wide as the longest label ("#12 portraitUpsideDown cancelled"), leaving the gauge at
        // least half the row or 16 columns, whichever is less.
        let jobs = model.jobs.suffix(bars.height)
        let labels = jobs.map(label)
        let longest = labels.map(\.count).max() ?? 0
        let labelWidth = min(longest, max(bars.width / 2, bars.width - 16))
        for (row, (job, text)) in zip(jobs, labels).enumerated() {
            let line = bars.row(row)
            let columns = line.columns([.fixed(labelWidth), .fill()], spacing: 1)
            buffer.setString(
                text, x: columns[0].x, y: columns[0].y, maxWidth: columns[0].width,
                style: style(job, theme: theme))
            Gauge(
                ratio: job.progress, label: "\(Int((job.progress * 100).rounded()))%",
                filledStyle: theme.gaugeFilled, style: theme.text
            ).render(into: &buffer, area: columns[1])
        }
    }

    private func headLines(theme: Theme) -> [Line] {
        let explanation =
            mode == .bound
            ? Line(
                "Bound: Tether's asyncSink, stored in the view model's lifetime — dismissing cancels every "
                    + "running body.", style: theme.dimmed)
            : Line(
                "Leaky: the seed's asyncSink keeps only its last Task — dismissing cancels that one; the "
                    + "others keep running (leak, zombies).", style: LabStyle(theme: theme).leaky)
        return [
            explanation,
            Line([
                Span("overlap "), Span(model.overlap.name, style: theme.accent),
                Span("  (p cycles it; the sink is remade)", style: theme.dimmed),
            ]),
            Line("started \(model.started)   running \(model.running)"),
        ]
    }

    private func label(_ job: AsyncSinkViewModel.Job) -> String {
        let state =
            switch job.state {
            case .waiting: "waiting"
            case .running: "running"
            case .done: "done"
            case .cancelled: "cancelled"
            }
        return "#\(job.number) \(job.orientation.rawValue) \(state)"
    }

    private func style(_ job: AsyncSinkViewModel.Job, theme: Theme) -> Style {
        switch job.state {
        case .waiting, .running: theme.text
        case .done: LabStyle(theme: theme).calm
        case .cancelled: theme.dimmed
        }
    }
}
