import TerminalUI
import Tether

/// Scenario 4: an `asyncSink` whose bodies are slow async work, and what cancelling it cancels.
///
/// Each rotation starts three seconds of lab-time work, a progress bar, under the overlap
/// policy `p` cycles. Bound, Tether's `asyncSink` cancels every running body when the sheet is
/// dismissed: every bar stops. Leaky, the article's own asyncSink cancels only the last task it
/// started: rotate twice and dismiss, and all but the last keep running — a leak named by the
/// sink's call site, each progress step after dismissal a zombie delivery.
extension AsyncSinkViewModel: ScenarioModel {
    var keyHints: [KeyHint] { [KeyHint("p", "overlap policy")] }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        guard key == .character("p") else { return false }
        cycleOverlap()
        return true
    }

    func statusLines(style: LabStyle) -> [Line] {
        [
            Line([
                TextSpan("overlap "), TextSpan(overlap.name, style: style.theme.accent),
                TextSpan("  (p cycles it; the sink is remade)", style: style.theme.dimmed),
            ]),
            Line("started \(started)   running \(running)"),
        ]
    }

    /// At least three bars.
    var bodyRows: Int { 3 }

    /// One progress bar per rotation's work, the latest at the bottom.
    func renderBody(into buffer: inout Buffer, area: Rect, style: LabStyle) {
        guard !jobs.isEmpty else {
            Paragraph("Rotate (r) to start work.", style: style.theme.dimmed).render(
                into: &buffer, area: area)
            return
        }
        // As wide as the longest label ("#12 portraitUpsideDown cancelled"), leaving the bar at
        // least half the row or 16 columns, whichever is less.
        let shown = jobs.suffix(area.height)
        let labels = shown.map(\.label)
        let longest = labels.map(\.count).max() ?? 0
        let labelWidth = min(longest, max(area.width / 2, area.width - 16))
        for (row, (job, text)) in zip(shown, labels).enumerated() {
            let columns = area.row(row).columns([.fixed(labelWidth), .fill()], spacing: 1)
            buffer.setString(
                text, x: columns[0].x, y: columns[0].y, maxWidth: columns[0].width, style: job.style(style))
            ProgressBar(
                ratio: job.progress, label: "\(Int((job.progress * 100).rounded()))%",
                filledStyle: style.theme.gaugeFilled, style: style.theme.text
            ).render(into: &buffer, area: columns[1])
        }
    }
}

extension AsyncSinkViewModel.Job {
    /// `#2 portraitUpsideDown running`.
    fileprivate var label: String { "#\(number) \(orientation.rawValue) \(state)" }

    fileprivate func style(_ style: LabStyle) -> Style {
        switch state {
        case .waiting, .running: style.theme.text
        case .done: style.calm
        case .cancelled: style.theme.dimmed
        }
    }
}
