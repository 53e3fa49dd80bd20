import TerminalUI
import Tether
import TetherInspector

/// A growing site's report, over everything (Enter on a site under Growing in the inspector): its
/// signature, then the trace — the owner that never ended, how many entries the site holds and
/// how many each repetition adds, the counts at the last checkpoints, and how that kind of growth
/// is usually fixed. ↑/↓, PageUp/PageDown and Space scroll; Esc or Enter close it.
///
/// A value of the moment it was opened: the report does not change with later snapshots. Binds
/// nothing. Main-actor isolated; lives while it is on the stack.
@MainActor
final class GrowthReportScreen: Screen {
    let lifecycle: Lifecycle
    let id = "growth-report"
    let title = "Growth report"
    let report: InspectorGrowthReport
    private var scroll = ParagraphScroll()

    init(report: InspectorGrowthReport, ledger: Ledger) {
        self.report = report
        lifecycle = Lifecycle(ledger: ledger)
    }

    var presentation: Presentation { .overlay(maxWidth: 100) }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        if key == .escape || key == .enter {
            context.dismiss()
            return true
        }
        return scroll.handle(key)
    }

    func handle(mouse: MouseEvent, context: ScreenContext) -> Bool { scroll.handle(mouse) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let style = LabStyle(theme: theme)
        let inner = Block(title: " Growth report — Esc closes ", theme: theme).render(
            into: &buffer, area: area, padding: 1)
        guard !inner.isEmpty else { return }
        scroll.render(
            Paragraph(GrowthReportScreen.lines(report, style: style), style: theme.text), into: &buffer,
            area: inner)
    }

    /// The report as lines: the signature and the counts, then the trace (in ASCII where lines are).
    static func lines(_ report: InspectorGrowthReport, style: LabStyle) -> [Line] {
        let theme = style.theme
        let arrow = style.isASCII ? " -> " : " → "
        var lines = [
            Line([TextSpan("signature  ", style: theme.dimmed), TextSpan(report.signature, style: .bold)]),
            Line([
                TextSpan("live       ", style: theme.dimmed),
                TextSpan("\(report.live)", style: style.leaky),
                TextSpan(
                    " at the last \(report.counts.count) checkpoint\(report.counts.count == 1 ? "" : "s"): "
                        + report.counts.map(String.init).joined(separator: arrow)),
            ]),
            Line(""),
        ]
        let trace = style.isASCII ? LeakReportScreen.ascii(report.trace) : report.trace
        for (index, text) in trace.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let isFix = text.contains("fix: ")
            lines.append(
                Line(String(text), style: index == 0 ? style.leaky : (isFix ? theme.accent : theme.text)))
        }
        return lines
    }
}
