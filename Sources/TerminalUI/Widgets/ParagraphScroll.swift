/// Where a long `Paragraph` is scrolled to, kept by its screen between frames: ↑/↓ (or k/j) move
/// it a line, PageUp/PageDown and Space a page, Home/End to either end, the wheel three lines.
///
/// The page and the wrapped length are those of the last frame rendered. A plain value:
/// `Sendable`.
public struct ParagraphScroll: Hashable, Sendable {
    /// The first line shown.
    public private(set) var offset = 0
    private var page = 10
    private var total = 0

    public init() {}

    /// Scrolls for `key`; false when the key does not scroll.
    public mutating func handle(_ key: Key) -> Bool {
        guard let step = key == .character(" ") ? page : key.navigationStep(page: page, limit: total) else {
            return false
        }
        offset = max(0, offset + step)
        return true
    }

    /// Scrolls for a wheel event; false for any other mouse event.
    public mutating func handle(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .wheelUp: offset = max(0, offset - 3)
        case .wheelDown: offset += 3
        default: return false
        }
        return true
    }

    /// Renders `paragraph` into `area` from the scroll position, kept within the text.
    public mutating func render(_ paragraph: Paragraph, into buffer: inout Buffer, area: Rect) {
        total =
            paragraph.wrap ? Paragraph.height(of: paragraph.lines, width: area.width) : paragraph.lines.count
        page = max(1, area.height - 1)
        offset = min(offset, max(0, total - area.height))
        var shown = paragraph
        shown.scroll = offset
        shown.render(into: &buffer, area: area)
    }
}
