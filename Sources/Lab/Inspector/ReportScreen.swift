import Foundation
import TerminalUI
import Tether
import TetherInspector

/// A report over everything — a leak group's (Enter on a leak in the inspector) or a growing
/// site's (Enter on a site under Growing): its lines, scrolled with ↑/↓, PageUp/PageDown and
/// Space; Esc or Enter close it.
///
/// A value of the moment it was opened: the report does not change with later snapshots. Binds
/// nothing. Main-actor isolated; lives while it is on the stack.
@MainActor
final class ReportScreen<Report: Sendable>: Screen {
    let lifecycle: Lifecycle
    let id: String
    let title: String
    let report: Report
    private let lines: (Report, LabStyle) -> [Line]
    private var scroll = ParagraphScroll()

    init(
        id: String, title: String, report: Report, ledger: Ledger,
        lines: @escaping (Report, LabStyle) -> [Line]
    ) {
        self.id = id
        self.title = title
        self.report = report
        self.lines = lines
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
        let inner = Block(title: " \(title) — Esc closes ", theme: theme).render(
            into: &buffer, area: area, padding: 1)
        guard !inner.isEmpty else { return }
        scroll.render(Paragraph(lines(report, style), style: theme.text), into: &buffer, area: inner)
    }

    /// A report's trace as lines: the headline in `headline`'s style, fix lines in the accent.
    /// A line wrapped in a narrow report carries the tree's rail on to its next rows.
    static func trace(_ trace: String, headline: Style, style: LabStyle) -> [Line] {
        let text = style.isASCII ? ascii(trace) : trace
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, text in
            let lineStyle =
                index == 0 ? headline : (text.contains("fix: ") ? style.theme.accent : style.theme.text)
            var line = Line(String(text), style: lineStyle)
            line.continuation = [TextSpan(rail(of: text), style: lineStyle)]
            return line
        }
    }

    /// The rail a trace line's wrapped rows start with: its tree prefix with each branch carried
    /// on down (`├─ ` becomes `│  `, `╰─ ` blanks).
    static func rail(of line: Substring) -> String {
        let prefix = line.prefix { "│├╰─|`- ".contains($0) }
        return String(prefix.map { "│├".contains($0) ? "│" : $0 == "|" ? "|" : " " })
    }

    /// The trace's tree lines in ASCII.
    static func ascii(_ trace: String) -> String {
        trace.replacingOccurrences(of: "╰─", with: "`-").replacingOccurrences(of: "├─", with: "|-")
            .replacingOccurrences(of: "│", with: "|")
    }
}

/// A leak group's report: the signature and how many leaks share it, then the trace of the first —
/// the owner, how long it outlived its end, each survivor with what it did after the end, and how
/// that kind of leak is usually fixed.
typealias LeakReportScreen = ReportScreen<InspectorSnapshot.LeakGroup>

extension ReportScreen where Report == InspectorSnapshot.LeakGroup {
    convenience init(group: InspectorSnapshot.LeakGroup, ledger: Ledger) {
        self.init(id: "report", title: "Leak report", report: group, ledger: ledger, lines: Self.lines)
    }

    var group: InspectorSnapshot.LeakGroup { report }

    /// The report as lines: the group, then the first leak's trace (in ASCII where lines are).
    static func lines(_ group: InspectorSnapshot.LeakGroup, style: LabStyle) -> [Line] {
        let theme = style.theme
        guard let first = group.leaks.first else { return [] }
        var lines = [
            Line([TextSpan("signature  ", style: theme.dimmed), TextSpan(group.signature, style: .bold)]),
            Line([
                TextSpan("leaks      ", style: theme.dimmed),
                TextSpan("\(group.count)", style: style.alarm),
                TextSpan(
                    group.count == 1
                        ? " of this shape: \(first.owner)"
                        : " of this shape: " + group.leaks.map(\.owner.description).joined(separator: ", ")),
            ]),
            Line(""),
        ]
        guard let report = first.report else {
            lines.append(
                Line("\(first.owner) leaked: kept by \(first.kindName) at \(first.site)", style: style.alarm))
            lines.append(
                Line("(the serving process sent no trace: it predates leak reports)", style: theme.dimmed))
            return lines
        }
        return lines + trace(report.trace, headline: style.alarm, style: style)
    }
}

/// A growing site's report: its signature, then the trace — the owner that never ended, how many
/// entries the site holds and how many each repetition adds, the counts at the last checkpoints,
/// and how that kind of growth is usually fixed.
typealias GrowthReportScreen = ReportScreen<InspectorGrowthReport>

extension ReportScreen where Report == InspectorGrowthReport {
    convenience init(report: InspectorGrowthReport, ledger: Ledger) {
        self.init(
            id: "growth-report", title: "Growth report", report: report, ledger: ledger, lines: Self.lines)
    }

    /// The report as lines: the signature and the counts, then the trace (in ASCII where lines are).
    static func lines(_ report: InspectorGrowthReport, style: LabStyle) -> [Line] {
        let theme = style.theme
        let arrow = style.isASCII ? " -> " : " → "
        let lines = [
            Line([TextSpan("signature  ", style: theme.dimmed), TextSpan(report.signature, style: .bold)]),
            Line([
                TextSpan("live       ", style: theme.dimmed),
                TextSpan("\(report.live)", style: style.leaky),
                TextSpan(
                    " at the last \(report.counts.count) checkpoint\(report.counts.count == 1 ? "" : "s"): "
                        + report.counts.map(String.init).joined(separator: arrow)),
            ]),
            Line([TextSpan("scope      ", style: theme.dimmed), TextSpan(report.scope)]),
            Line(""),
        ]
        return lines + trace(report.trace, headline: style.leaky, style: style)
    }
}
