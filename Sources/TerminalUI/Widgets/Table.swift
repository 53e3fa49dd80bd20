/// Rows of cells under a header, with column widths from layout constraints and an
/// optional selected row kept visible.
///
/// A plain value; rendering is pure.
public struct Table: Widget, Sendable {
    public var header: [String]
    public var rows: [[String]]
    public var widths: [Constraint]
    public var headerStyle: Style
    public var style: Style
    public var highlightStyle: Style
    public var selected: Int?
    public var columnSpacing: Int

    public init(
        header: [String], rows: [[String]], widths: [Constraint], headerStyle: Style = .bold, style: Style = .plain,
        highlightStyle: Style = .reverse, selected: Int? = nil, columnSpacing: Int = 1
    ) {
        self.header = header
        self.rows = rows
        self.widths = widths
        self.headerStyle = headerStyle
        self.style = style
        self.highlightStyle = highlightStyle
        self.selected = selected
        self.columnSpacing = columnSpacing
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let columns = Layout.horizontal(widths, spacing: columnSpacing).split(area)
        var y = area.y
        if !header.isEmpty {
            draw(header, y: y, columns: columns, style: headerStyle, into: &buffer)
            y += 1
        }
        let height = area.bottom - y
        guard height > 0 else { return }
        let offset = ListState(selected: selected).visibleOffset(height: height, count: rows.count)
        for (n, row) in rows.dropFirst(offset).prefix(height).enumerated() {
            let isSelected = selected == offset + n
            let rowStyle = isSelected ? style.patched(with: highlightStyle) : style
            if isSelected { buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: rowStyle) }
            draw(row, y: y, columns: columns, style: rowStyle, into: &buffer)
            y += 1
        }
    }

    private func draw(_ cells: [String], y: Int, columns: [Rect], style: Style, into buffer: inout Buffer) {
        for (text, column) in zip(cells, columns) where column.width > 0 {
            buffer.setString(text, x: column.x, y: y, maxWidth: column.width, style: style)
        }
    }
}
