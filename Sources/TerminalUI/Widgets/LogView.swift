/// The tail of a log: the last lines that fit, newest at the bottom, or an earlier window
/// when scrolled back.
///
/// A plain value; rendering is pure. Lines longer than the area are clipped.
public struct LogView: Widget, Sendable {
    public var lines: [Line]
    /// Lines scrolled back from the end; 0 follows the tail.
    public var scrollBack: Int
    public var style: Style

    public init(_ lines: [Line], scrollBack: Int = 0, style: Style = .plain) {
        self.lines = lines
        self.scrollBack = max(0, scrollBack)
        self.style = style
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let end = max(0, lines.count - min(scrollBack, max(0, lines.count - area.height)))
        let start = max(0, end - area.height)
        for (row, line) in lines[start..<end].enumerated() {
            buffer.setLine(line, x: area.x, y: area.y + row, maxWidth: area.width, base: style)
        }
    }
}
