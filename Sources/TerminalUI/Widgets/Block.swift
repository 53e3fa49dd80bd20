/// A bordered box with an optional title in its top edge.
///
/// A plain value; rendering is pure. Draw the block, then draw content in `inner(_:)`.
public struct Block: Widget, Sendable {
    public var title: String?
    public var lines: LineSet
    public var borderStyle: Style
    public var titleStyle: Style

    public init(
        title: String? = nil, lines: LineSet = .unicode, borderStyle: Style = .plain,
        titleStyle: Style = .bold
    ) {
        self.title = title
        self.lines = lines
        self.borderStyle = borderStyle
        self.titleStyle = titleStyle
    }

    /// A block drawn in a theme's border and title styles and line set.
    public init(title: String? = nil, theme: Theme) {
        self.init(title: title, lines: theme.lines, borderStyle: theme.border, titleStyle: theme.title)
    }

    /// The area inside the border.
    public func inner(_ area: Rect) -> Rect { area.inset(by: 1) }

    /// Draws the block and returns where its content goes: inside the border, `padding` columns
    /// in from its sides.
    public func render(into buffer: inout Buffer, area: Rect, padding: Int) -> Rect {
        render(into: &buffer, area: area)
        return inner(area).inset(horizontal: padding, vertical: 0)
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        let area = area.intersection(buffer.area)
        guard !area.isEmpty else { return }
        let l = area.left
        let r = area.right - 1
        let t = area.top
        let b = area.bottom - 1
        for x in l...r {
            buffer.set(lines.horizontal, x: x, y: t, style: borderStyle)
            buffer.set(lines.horizontal, x: x, y: b, style: borderStyle)
        }
        for y in t...b {
            buffer.set(lines.vertical, x: l, y: y, style: borderStyle)
            buffer.set(lines.vertical, x: r, y: y, style: borderStyle)
        }
        buffer.set(lines.topLeft, x: l, y: t, style: borderStyle)
        if r > l { buffer.set(lines.topRight, x: r, y: t, style: borderStyle) }
        if b > t {
            buffer.set(lines.bottomLeft, x: l, y: b, style: borderStyle)
            if r > l { buffer.set(lines.bottomRight, x: r, y: b, style: borderStyle) }
        }
        if let title, !title.isEmpty, area.width > 2 {
            buffer.setString(title, x: l + 1, y: t, maxWidth: area.width - 2, style: titleStyle)
        }
    }
}
