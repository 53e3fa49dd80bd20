import Foundation
import TerminalUI
import Tether
import TetherInspector

/// A leak group's report, over everything (Enter on a leak in the inspector): the signature and
/// how many leaks share it, then the trace of the first — the owner, how long it outlived its
/// end, each survivor with what it did after the end, and how that kind of leak is usually fixed.
/// ↑/↓, PageUp/PageDown and Space scroll; Esc or Enter close it.
///
/// A value of the moment it was opened: the report does not change with later snapshots. Binds
/// nothing. Main-actor isolated; lives while it is on the stack.
@MainActor
final class LeakReportScreen: Screen {
    let lifecycle: Lifecycle
    let id = "report"
    let title = "Leak report"
    let group: InspectorSnapshot.LeakGroup
    private var scroll = ParagraphScroll()

    init(group: InspectorSnapshot.LeakGroup, ledger: Ledger) {
        self.group = group
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
        let inner = Block(title: " Leak report — Esc closes ", theme: theme).render(
            into: &buffer, area: area, padding: 1)
        guard !inner.isEmpty else { return }
        scroll.render(
            Paragraph(LeakReportScreen.lines(group, style: style), style: theme.text), into: &buffer,
            area: inner)
    }

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
        let trace = style.isASCII ? ascii(report.trace) : report.trace
        for (index, text) in trace.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let isFix = text.contains("fix: ")
            lines.append(
                Line(String(text), style: index == 0 ? style.alarm : (isFix ? theme.accent : theme.text)))
        }
        return lines
    }

    /// The trace's tree lines in ASCII.
    static func ascii(_ trace: String) -> String {
        trace.replacingOccurrences(of: "╰─", with: "`-").replacingOccurrences(of: "├─", with: "|-")
            .replacingOccurrences(of: "│", with: "|")
    }
}
