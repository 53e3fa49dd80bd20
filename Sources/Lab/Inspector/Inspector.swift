import TerminalUI
import Tether

/// The inspector: the ledger's counters with their change since the last frame, the ledger as
/// a tree (owner → entries with kind, call site, age and values delivered), and the event log.
///
/// A component: it renders from a plain value, one `LedgerSnapshot` per frame, wherever the
/// snapshot comes from, and keeps its own state — the counters of the frames it drew, for the
/// deltas. A frame whose counters did not change (a redraw for something else) keeps showing
/// the last change, so a delta does not vanish 16 ms after it appears. Leaks and zombies stand
/// out (`LabStyle.alarm`). Main-actor isolated; lives as long as the lab.
@MainActor
final class Inspector {
    /// The counters the last frame showed.
    private(set) var previous: LabDump.Counters?
    /// The counters before the last change, for the deltas.
    private var beforeChange: LabDump.Counters?

    /// Moves to this frame's counters and returns the ones the deltas are taken against.
    private func advance(to counters: LabDump.Counters) -> LabDump.Counters {
        if let previous, previous != counters { beforeChange = previous }
        previous = counters
        return beforeChange ?? counters
    }

    func render(_ snapshot: LedgerSnapshot, into buffer: inout Buffer, area: Rect, style: LabStyle) {
        let theme = style.theme
        let counters = LabDump.Counters(snapshot.counters)
        let before = advance(to: counters)
        let inner = Block(title: " Inspector ", theme: theme).render(into: &buffer, area: area, padding: 1)
        guard !inner.isEmpty else { return }
        let rows = inner.rows([.fixed(3), .fixed(1), .fill(3), .fixed(1), .fill(2)])
        paintCounters(counters, before: before, into: &buffer, area: rows[0], style: style)
        buffer.setString("Ledger", x: rows[1].x, y: rows[1].y, maxWidth: rows[1].width, style: theme.title)
        LogView(Inspector.tree(snapshot, style: style), style: theme.text).renderHead(
            into: &buffer, area: rows[2])
        buffer.setString("Events", x: rows[3].x, y: rows[3].y, maxWidth: rows[3].width, style: theme.title)
        LogView(
            Inspector.events(snapshot.events.suffix(rows[4].height), style: style), style: theme.text
        )
        .render(into: &buffer, area: rows[4])
    }

    private func paintCounters(
        _ now: LabDump.Counters, before: LabDump.Counters, into buffer: inout Buffer, area: Rect,
        style: LabStyle
    ) {
        let items: [(String, Int, Int, Bool)] = [
            ("view models", now.viewModels, before.viewModels, false),
            ("subscriptions", now.subscriptions, before.subscriptions, false),
            ("tasks", now.tasks, before.tasks, false),
            ("observers", now.observers, before.observers, false),
            ("leaks", now.leaks, before.leaks, true),
            ("zombies", now.zombies, before.zombies, true),
        ]
        let columns = area.columns([.fill(), .fill()], spacing: 2)
        for (i, item) in items.enumerated() {
            let (label, value, old, alarming) = item
            let cell = columns[i / 3].row(i % 3)
            guard !cell.isEmpty else { continue }
            var spans = [TextSpan(label.padded(toWidth: 13) + " ", style: style.theme.text)]
            let valueStyle = alarming && value > 0 ? style.alarm : Style.bold
            spans.append(TextSpan(String(value).leftPadded(toWidth: 4), style: valueStyle))
            let delta = value - old
            if delta != 0 {
                spans.append(
                    TextSpan(
                        " " + (delta > 0 ? "+\(delta)" : "\(delta)"),
                        style: delta > 0 ? style.theme.accent : style.calm))
            }
            buffer.setLine(Line(spans), x: cell.x, y: cell.y, maxWidth: cell.width)
        }
    }

    /// The ledger as lines: each owner, then its entries indented under it; unowned entries last.
    static func tree(_ snapshot: LedgerSnapshot, style: LabStyle) -> [Line] {
        let theme = style.theme
        var lines: [Line] = []
        for owner in snapshot.owners {
            let (state, stateStyle): (String, Style) =
                switch owner.state {
                case .alive: ("alive", style.calm)
                case .ended: ("ended", theme.dimmed)
                case .leaked: ("LEAKED", style.alarm)
                }
            lines.append(
                Line([
                    TextSpan(owner.id.description, style: owner.state == .leaked ? style.alarm : .bold),
                    TextSpan(" "), TextSpan(state, style: stateStyle),
                    TextSpan(" \(format(owner.age)) \(owner.site)", style: theme.dimmed),
                ]))
            for entry in owner.entries { lines.append(entryLine(entry, style: style)) }
        }
        if !snapshot.unowned.isEmpty {
            lines.append(Line("(no owner)", style: theme.dimmed))
            for entry in snapshot.unowned { lines.append(entryLine(entry, style: style)) }
        }
        if lines.isEmpty { lines.append(Line("nothing bound", style: theme.dimmed)) }
        return lines
    }

    private static func entryLine(_ entry: LedgerSnapshot.Entry, style: LabStyle) -> Line {
        var spans = [
            TextSpan("  \(entry.kind.rawValue) "),
            TextSpan("\(entry.site)", style: .bold),
            TextSpan(" \(entry.deliveries)× \(format(entry.age))", style: style.theme.dimmed),
        ]
        if entry.state == .paused { spans.append(TextSpan(" paused", style: style.theme.dimmed)) }
        if !entry.bound { spans.append(TextSpan(" unbound", style: style.theme.warning)) }
        return Line(spans)
    }

    /// The event log as lines, oldest first: time, then what happened.
    static func events(_ events: some Sequence<LedgerEvent>, style: LabStyle) -> [Line] {
        events.map { event in
            let text = event.kind == .note ? (event.message ?? "") : event.summary
            let alarming = event.kind == .leak || event.kind == .zombie
            return Line([
                TextSpan(format(event.time).leftPadded(toWidth: 7) + " ", style: style.theme.dimmed),
                TextSpan(
                    text, style: alarming ? style.alarm : (event.kind == .note ? style.theme.accent : .plain)),
            ])
        }
    }

    /// `850ms`, `1.25s`, `2m05s`.
    static func format(_ d: Duration) -> String {
        let ms = Int(d.components.seconds) * 1000 + Int(d.components.attoseconds / 1_000_000_000_000_000)
        if ms < 1000 { return "\(ms)ms" }
        if ms < 60_000 {
            let hundredths = (ms % 1000) / 10
            return "\(ms / 1000).\(hundredths < 10 ? "0" : "")\(hundredths)s"
        }
        let s = ms / 1000
        return "\(s / 60)m\(s % 60 < 10 ? "0" : "")\(s % 60)s"
    }
}

extension LogView {
    /// Renders the first lines that fit (a tree reads from the top), with `…` when some are cut.
    fileprivate func renderHead(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        if lines.count <= area.height {
            LogView(lines, style: style).render(into: &buffer, area: area)
            return
        }
        var shown = Array(lines.prefix(area.height - 1))
        shown.append(Line("… \(lines.count - shown.count) more", style: .dim))
        LogView(shown, style: style).render(into: &buffer, area: area)
    }
}
