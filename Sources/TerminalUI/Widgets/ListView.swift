/// The selection and scroll position of a `ListView`, kept by the screen between frames.
///
/// A plain value: `Sendable`.
public struct ListState: Hashable, Sendable {
    public var selected: Int?
    /// The first visible item.
    public var offset: Int
    public init(selected: Int? = nil, offset: Int = 0) {
        self.selected = selected
        self.offset = offset
    }

    /// Moves the selection by `delta`, clamped to `0..<count`.
    public mutating func move(by delta: Int, count: Int) {
        guard count > 0 else {
            selected = nil
            return
        }
        selected = min(max(0, (selected ?? 0) + delta), count - 1)
    }

    /// The offset that keeps `selected` visible in `height` rows, scrolling as little as possible.
    public func visibleOffset(height: Int, count: Int) -> Int {
        guard height > 0, count > 0 else { return 0 }
        var offset = min(self.offset, max(0, count - height))
        if let s = selected {
            if s < offset { offset = s }
            if s >= offset + height { offset = s - height + 1 }
        }
        return max(0, offset)
    }
}

/// A selectable, scrolling list: one item per row, the selected one highlighted and marked.
///
/// A plain value; rendering is pure apart from updating the `ListState` it is given.
public struct ListView: Widget, Sendable {
    public var items: [Line]
    public var style: Style
    public var highlightStyle: Style
    /// Drawn before the selected item; other items are indented by its width.
    public var highlightSymbol: String

    public init(_ items: [Line], style: Style = .plain, highlightStyle: Style = .reverse, highlightSymbol: String = "> ") {
        self.items = items
        self.style = style
        self.highlightStyle = highlightStyle
        self.highlightSymbol = highlightSymbol
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        var state = ListState()
        render(into: &buffer, area: area, state: &state)
    }

    /// Renders and stores the scroll offset used back into `state`.
    public func render(into buffer: inout Buffer, area: Rect, state: inout ListState) {
        guard !area.isEmpty else { return }
        state.offset = state.visibleOffset(height: area.height, count: items.count)
        let indent = CharacterWidth.of(highlightSymbol)
        for row in 0..<area.height {
            let i = state.offset + row
            guard i < items.count else { break }
            let y = area.y + row
            let isSelected = state.selected == i
            let lineStyle = isSelected ? style.patched(with: highlightStyle) : style
            if isSelected { buffer.fill(area.row(row), style: lineStyle) }
            var x = area.x
            if indent > 0 {
                x = buffer.setString(
                    isSelected ? highlightSymbol : String(repeating: " ", count: indent), x: x, y: y,
                    maxWidth: area.width, style: lineStyle)
            }
            buffer.setLine(items[i], x: x, y: y, maxWidth: area.right - x, base: lineStyle)
        }
    }
}
