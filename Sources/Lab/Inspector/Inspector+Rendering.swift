import TerminalUI
import Tether
import TetherInspector

extension Inspector {
    /// Paints the inspector into `area`: a box titled `title`, then the filter (while there is
    /// one), the counters, the growing sites, the leak groups, the owner tree and the event log.
    /// The selection is shown only while `focused` (the inspector has the keys); the box is drawn
    /// in the accent color then.
    func render(
        into buffer: inout Buffer, area: Rect, style: LabStyle, title: String = " Inspector ", focused: Bool
    ) {
        let theme = style.theme
        var block = Block(title: title, theme: theme)
        if focused { block.borderStyle = theme.accent }
        let inner = block.render(into: &buffer, area: area, padding: 1)
        guard !inner.isEmpty else { return }
        let columns = inner.width >= 100 ? 3 : 2
        let groups = content.groups
        let growth = content.growth
        let parts = inner.rows(
            Inspector.layout(
                height: inner.height, filter: isEditingFilter || !filter.isEmpty, counterRows: 6 / columns,
                growth: growth.count, groups: groups.count))
        paintFilter(into: &buffer, area: parts[0], style: style)
        paintCounters(into: &buffer, area: parts[1], columns: columns, style: style)

        let growthTitle =
            growth.isEmpty ? "Growing: none" : "Growing: \(growth.count) site\(growth.count == 1 ? "" : "s")"
        buffer.setString(
            growthTitle, x: parts[2].x, y: parts[2].y, maxWidth: parts[2].width,
            style: growth.isEmpty ? theme.title : style.leaky)
        paintList(
            growth.map { Inspector.growthLine($0, style: style, width: parts[3].width - (focused ? 2 : 0)) },
            selected: growth.firstIndex { InspectorContent.item($0) == selection }, state: &growthList,
            into: &buffer, area: parts[3], style: style, focused: focused)

        let leakCount = groups.reduce(0) { $0 + $1.count }
        let leakTitle =
            groups.isEmpty
            ? "Leaks: none" : "Leaks: \(leakCount) in \(groups.count) group\(groups.count == 1 ? "" : "s")"
        buffer.setString(
            leakTitle, x: parts[4].x, y: parts[4].y, maxWidth: parts[4].width, style: theme.title)
        let leakLines =
            groups.isEmpty
            ? [Line(filter.isEmpty ? "nothing outlived its owner" : "no leak matches", style: theme.dimmed)]
            : groups.map {
                Inspector.groupLine(
                    $0.group, count: $0.count, style: style, width: parts[5].width - (focused ? 2 : 0))
            }
        paintList(
            leakLines, selected: groups.firstIndex { .leakGroup($0.signature) == selection },
            state: &leakList,
            into: &buffer, area: parts[5], style: style, focused: focused)

        let ownerTitle =
            filter.isEmpty
            ? "Owners: \(content.ownerCount)" : "Owners: \(content.shownOwnerCount) of \(content.ownerCount)"
        buffer.setString(
            ownerTitle, x: parts[6].x, y: parts[6].y, maxWidth: parts[6].width, style: theme.title)
        let tree = content.tree
        if tree.isEmpty {
            let empty = Line(filter.isEmpty ? "nothing bound" : "nothing matches", style: theme.dimmed)
            paintList(
                count: 1, line: { _ in empty }, selected: nil, state: &treeList, into: &buffer,
                area: parts[7], style: style, focused: focused)
        } else {
            // From a head, the tree holds its first rows only: all an unfocused list draws.
            paintList(
                count: content.treeCount,
                line: { $0 < tree.count ? Inspector.treeLine(tree[$0], style: style) : Line("") },
                selected: focused ? tree.firstIndex { $0.item != nil && $0.item == selection } : nil,
                state: &treeList, into: &buffer, area: parts[7], style: style, focused: focused)
        }

        guard !parts[8].isEmpty else { return }
        buffer.setString("Events", x: parts[8].x, y: parts[8].y, maxWidth: parts[8].width, style: theme.title)
        LogView(Inspector.events(snapshot.events.suffix(parts[9].height), style: style), style: theme.text)
            .render(into: &buffer, area: parts[9])
    }

    /// The rows of the inspector's parts, top to bottom: filter, counters, growing sites' title
    /// and list, leaks' title and list, owners' title and tree, events' title and log. The tree
    /// comes first: the growing sites take at most a fifth of what is left (no row but their
    /// title when there are none), the leak list at most a quarter of the rest, the events two
    /// fifths of what remains when there is room.
    static func layout(height: Int, filter: Bool, counterRows: Int, growth: Int = 0, groups: Int)
        -> [Constraint]
    {
        let head = (filter ? 1 : 0) + counterRows + 3
        var rest = max(0, height - head)
        let growing = growth == 0 ? 0 : min(growth, max(1, rest / 5))
        rest = max(0, rest - growing)
        let leaks = min(max(1, groups), max(1, rest / 4))
        let body = max(0, rest - leaks)
        let events = body >= 8 ? body * 2 / 5 : 0
        return [
            .fixed(filter ? 1 : 0), .fixed(counterRows), .fixed(1), .fixed(growing), .fixed(1), .fixed(leaks),
            .fixed(1), .fixed(body - events), .fixed(events > 0 ? 1 : 0), .fixed(max(0, events - 1)),
        ]
    }

    private func paintFilter(into buffer: inout Buffer, area: Rect, style: LabStyle) {
        guard !area.isEmpty else { return }
        let line =
            isEditingFilter
            ? Line([
                TextSpan("filter: ", style: style.theme.title),
                TextSpan(filter + "_", style: style.theme.accent),
            ])
            : Line([
                TextSpan("filter: ", style: style.theme.title), TextSpan(filter, style: style.theme.accent),
                TextSpan("  (/ edits, Esc clears)", style: style.theme.dimmed),
            ])
        buffer.setLine(line, x: area.x, y: area.y, maxWidth: area.width)
    }

    /// A list that scrolls to its selection while focused; unfocused it shows its head, with
    /// `… N more` when cut.
    private func paintList(
        _ lines: [Line], selected: Int?, state: inout ListState, into buffer: inout Buffer, area: Rect,
        style: LabStyle, focused: Bool
    ) {
        paintList(
            count: lines.count, line: { lines[$0] }, selected: selected, state: &state, into: &buffer,
            area: area, style: style, focused: focused)
    }

    /// As ``paintList(_:selected:state:into:area:style:focused:)``, for a list of `count` rows
    /// that `line` makes: only the rows on screen are made, however long the list (the owner tree
    /// of a lab that piled up leaks).
    private func paintList(
        count: Int, line: (Int) -> Line, selected: Int?, state: inout ListState, into buffer: inout Buffer,
        area: Rect, style: LabStyle, focused: Bool
    ) {
        guard !area.isEmpty else { return }
        guard focused else {
            var shown = (0..<min(count, area.height)).map(line)
            if count > area.height {
                shown = Array(shown.prefix(area.height - 1))
                shown.append(Line("… \(count - shown.count) more", style: style.theme.dimmed))
            }
            LogView(shown, style: style.theme.text).render(into: &buffer, area: area)
            return
        }
        state.selected = selected
        let offset = state.visibleOffset(height: area.height, count: count)
        var lines = (offset..<min(count, offset + area.height)).map(line)
        // The selected row in the highlight's own colors: red on the highlight would not read.
        if let selected, lines.indices.contains(selected - offset) {
            lines[selected - offset] = Line(
                lines[selected - offset].spans.map { TextSpan($0.text, style: $0.style.withoutColors) })
        }
        var window = ListState(selected: selected.map { $0 - offset }, offset: 0)
        ListView(lines, style: style.theme.text, highlightStyle: style.theme.highlight)
            .render(into: &buffer, area: area, state: &window)
        state.offset = offset
    }

    private func paintCounters(into buffer: inout Buffer, area: Rect, columns count: Int, style: LabStyle) {
        guard let now = previous else { return }
        let before = countersBeforeChange ?? now
        let items: [(String, KeyPath<LabDump.Counters, Int>, Bool)] = [
            (ownersLabel, \.viewModels, false), ("subscriptions", \.subscriptions, false),
            ("tasks", \.tasks, false), ("observers", \.observers, false), ("leaks", \.leaks, true),
            ("zombies", \.zombies, true),
        ]
        let columns = area.columns(Array(repeating: .fill(), count: count), spacing: 2)
        let perColumn = (items.count + count - 1) / count
        for (i, item) in items.enumerated() {
            let (label, counter, alarming) = item
            let cell = columns[i / perColumn].row(i % perColumn)
            guard !cell.isEmpty else { continue }
            let value = now[keyPath: counter]
            var spans = [TextSpan(label.padded(toWidth: 13) + " ", style: style.theme.text)]
            spans.append(
                TextSpan(
                    String(value).leftPadded(toWidth: 4), style: alarming && value > 0 ? style.alarm : .bold))
            let delta = value - before[keyPath: counter]
            let deltaText = delta == 0 ? "" : " " + (delta > 0 ? "+\(delta)" : "\(delta)")
            spans.append(
                TextSpan(deltaText.padded(toWidth: 5), style: delta > 0 ? style.theme.accent : style.calm))
            let x = buffer.setLine(Line(spans), x: cell.x, y: cell.y, maxWidth: cell.width)
            // A sparkline where the column has room for one worth reading.
            let room = cell.right - x - 1
            guard room >= 6 else { continue }
            Sparkline(
                history.values(counter, buckets: room), style: alarming ? style.alarm : style.theme.accent,
                ascii: style.isASCII
            ).render(into: &buffer, area: Rect(x: x + 1, y: cell.y, width: room, height: 1))
        }
    }

    /// `AppSession#1 ← AccumulationViewModel.swift:40 3 live +1/rep`: the owner, where the growing
    /// entries are made, how many are live and how many each repetition adds, fitted to `width`
    /// columns: when it is too long, the site gives way from its start (`…ViewModel.swift:40`),
    /// so the owner, the line and the counts stay in sight.
    static func growthLine(_ report: InspectorGrowthReport, style: LabStyle, width: Int = .max) -> Line {
        let arrow = style.isASCII ? " <- " : " ← "
        let gain = report.gainPerRepetition.map { " +\($0)/rep" } ?? ""
        let tail = " \(report.live) live" + gain
        let owner = report.owner.description
        var site = report.site.description
        let room = width - CharacterWidth.of(owner) - CharacterWidth.of(arrow) - CharacterWidth.of(tail)
        if CharacterWidth.of(site) > room {
            let ellipsis = style.isASCII ? "..." : "…"
            var kept = ""
            for character in site.reversed() {
                guard CharacterWidth.of(String(character) + kept) + CharacterWidth.of(ellipsis) <= room else {
                    break
                }
                kept = String(character) + kept
            }
            site = room > CharacterWidth.of(ellipsis) ? ellipsis + kept : ""
        }
        return Line([
            TextSpan(owner, style: style.leaky), TextSpan(site.isEmpty ? "" : arrow + site),
            TextSpan(tail, style: style.leaky),
        ])
    }

    /// `OrientationViewModel ← task OrientationViewModel.swift:46 ×3`, fitted to `width` columns:
    /// when it is too long, the middle gives way (`OrientationViewModel ← task Orien… ×3`), so the
    /// type and the count stay in sight. The count is `count`, or else the leaks `group` holds.
    static func groupLine(
        _ group: InspectorSnapshot.LeakGroup, count leakCount: Int? = nil, style: LabStyle, width: Int = .max
    ) -> Line {
        guard let leak = group.leaks.first else { return Line("") }
        let arrow = style.isASCII ? " <- " : " ← "
        var middle =
            leak.kind.map { arrow + $0.rawValue + " " + leak.site.description }
            ?? arrow + "itself, tracked at " + leak.site.description
        let others = (leak.report?.survivors.count ?? leak.survivors.count) - 1
        if others > 0 { middle += " +\(others) more" }
        let total = leakCount ?? group.count
        let count = total > 1 ? " ×\(total)" : ""
        let room = width - CharacterWidth.of(leak.owner.typeName) - CharacterWidth.of(count)
        if CharacterWidth.of(middle) > room {
            let ellipsis = style.isASCII ? "..." : "…"
            var cut = ""
            for character in middle {
                guard CharacterWidth.of(cut + String(character)) + CharacterWidth.of(ellipsis) <= room else {
                    break
                }
                cut.append(character)
            }
            while cut.last == " " { cut.removeLast() }
            middle = room >= CharacterWidth.of(ellipsis) + 1 ? cut + ellipsis : ""
        }
        return Line([
            TextSpan(leak.owner.typeName, style: style.alarm), TextSpan(middle),
            TextSpan(count, style: style.alarm),
        ])
    }

    /// An owner with its state, age and site (▾ when its entries show, ▸ when folded); an entry
    /// indented under it with its kind, site, deliveries and age.
    static func treeLine(_ row: InspectorContent.TreeRow, style: LabStyle) -> Line {
        let theme = style.theme
        switch row {
        case .owner(let owner, let expanded):
            let (state, stateStyle): (String, Style) =
                switch owner.state {
                case .alive: ("alive", style.calm)
                case .ended: ("ended", theme.dimmed)
                case .leaked: ("LEAKED", style.alarm)
                }
            let mark =
                owner.entries.isEmpty
                ? "  " : (expanded ? (style.isASCII ? "- " : "▾ ") : (style.isASCII ? "+ " : "▸ "))
            return Line([
                TextSpan(mark, style: theme.dimmed),
                TextSpan(owner.id.description, style: owner.state == .leaked ? style.alarm : .bold),
                TextSpan(" "), TextSpan(state, style: stateStyle),
                TextSpan(" \(owner.age.compactText) \(owner.site)", style: theme.dimmed),
            ])
        case .entry(let entry, _, _):
            // A count Tether could not keep (a `.sink` handed over with `store(in:)`) is no zero.
            let delivered = entry.deliveries.map { "\($0)×" } ?? (style.isASCII ? "-" : "–")
            var spans = [
                TextSpan("    \(entry.kind.rawValue) "),
                TextSpan("\(entry.site)", style: .bold),
                TextSpan(" \(delivered) \(entry.age.compactText)", style: theme.dimmed),
            ]
            if entry.paused { spans.append(TextSpan(" paused", style: theme.dimmed)) }
            if !entry.bound { spans.append(TextSpan(" unbound", style: theme.warning)) }
            return Line(spans)
        case .unownedHeading:
            return Line("(no owner)", style: theme.dimmed)
        }
    }

    /// The event log as lines, oldest first: time, then what happened.
    static func events(_ events: some Sequence<InspectorSnapshot.Event>, style: LabStyle) -> [Line] {
        events.map { event in
            let text = event.kind == .note ? (event.message ?? "") : event.summary
            let alarming = event.kind == .leak || event.kind == .zombie
            return Line([
                TextSpan(event.time.compactText.leftPadded(toWidth: 7) + " ", style: style.theme.dimmed),
                TextSpan(
                    text, style: alarming ? style.alarm : (event.kind == .note ? style.theme.accent : .plain)),
            ])
        }
    }
}
