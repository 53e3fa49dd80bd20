/// Text in an area: wrapped at word boundaries (or clipped), aligned, scrolled.
///
/// A plain value; rendering is pure.
public struct Paragraph: Widget, Sendable {
    /// Horizontal alignment of each row in the area.
    public enum Alignment: Hashable, Sendable { case left, center, right }

    public var lines: [Line]
    public var style: Style
    public var wrap: Bool
    public var alignment: Alignment
    /// Wrapped lines skipped from the top.
    public var scroll: Int

    public init(
        _ lines: [Line], style: Style = .plain, wrap: Bool = true, alignment: Alignment = .left,
        scroll: Int = 0
    ) {
        self.lines = lines
        self.style = style
        self.wrap = wrap
        self.alignment = alignment
        self.scroll = max(0, scroll)
    }
    public init(_ text: String, style: Style = .plain, wrap: Bool = true, alignment: Alignment = .left) {
        self.init(
            text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
                Line(String($0))
            },
            style: style, wrap: wrap, alignment: alignment)
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var y = area.y
        var skipped = 0
        for line in lines {
            let rows = wrap ? Paragraph.wrap(line, width: area.width) : [line]
            for row in rows {
                if skipped < scroll {
                    skipped += 1
                    continue
                }
                if y >= area.bottom { return }
                let w = row.width
                let x: Int
                switch alignment {
                case .left: x = area.x
                case .center: x = area.x + max(0, (area.width - w) / 2)
                case .right: x = area.x + max(0, area.width - w)
                }
                buffer.setLine(row, x: x, y: y, maxWidth: area.right - x, base: style)
                y += 1
            }
        }
    }

    /// The rows `lines` take once wrapped to `width`.
    public static func height(of lines: [Line], width: Int) -> Int {
        lines.reduce(0) { $0 + wrap($1, width: width).count }
    }

    /// Wraps a line into rows no wider than `width`, breaking at spaces where it can and
    /// inside words longer than a row, each row after the first led by the line's
    /// `continuation` (when it leaves room for a wide character). Never splits a wide character.
    public static func wrap(_ line: Line, width: Int) -> [Line] {
        guard width > 0 else { return [] }
        // Only where it leaves room for a wide character after it.
        let lead = Line(line.continuation).width + 2 <= width ? line.continuation : []
        let leadWidth = Line(lead).width
        var glyphs: [(ch: Character, style: Style, w: Int)] = []
        for span in line.spans {
            for ch in span.text { glyphs.append((ch, span.style, CharacterWidth.of(ch))) }
        }
        if glyphs.isEmpty { return [Line([])] }
        var rows: [[(ch: Character, style: Style, w: Int)]] = []
        var start = 0
        while start < glyphs.count {
            var used = rows.isEmpty ? 0 : leadWidth
            var end = start
            var lastSpace = -1
            while end < glyphs.count, used + glyphs[end].w <= width {
                if glyphs[end].ch == " " { lastSpace = end }
                used += glyphs[end].w
                end += 1
            }
            if end == start { end = start + 1 }  // a glyph wider than the row: take it alone
            var next = end
            if end < glyphs.count, glyphs[end].ch != " ", lastSpace > start {
                end = lastSpace
                next = lastSpace + 1
            } else if end < glyphs.count, glyphs[end].ch == " " {
                next = end + 1
            }
            rows.append(Array(glyphs[start..<end]))
            start = next
            while start < glyphs.count, glyphs[start].ch == " ", start == next, end != next - 1 { start += 1 }
        }
        return rows.enumerated().map { index, row in
            var spans = index == 0 ? [] : lead
            for g in row {
                if let last = spans.last, last.style == g.style {
                    spans[spans.count - 1].text.append(g.ch)
                } else {
                    spans.append(TextSpan(String(g.ch), style: g.style))
                }
            }
            return Line(spans)
        }
    }
}
