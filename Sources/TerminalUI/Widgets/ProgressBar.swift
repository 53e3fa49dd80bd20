/// A horizontal progress bar filled in proportion to `ratio`, with a centred label.
///
/// A plain value; rendering is pure. The label defaults to the percentage.
public struct ProgressBar: Widget, Sendable {
    public var ratio: Double
    public var label: String?
    public var filledStyle: Style
    public var style: Style

    public init(ratio: Double, label: String? = nil, filledStyle: Style = .reverse, style: Style = .plain) {
        self.ratio = ratio.isFinite ? min(max(ratio, 0), 1) : 0
        self.label = label
        self.filledStyle = filledStyle
        self.style = style
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let filled = Int((ratio * Double(area.width)).rounded(.down))
        buffer.fill(area, style: style)
        buffer.fill(Rect(x: area.x, y: area.y, width: filled, height: area.height), style: filledStyle)
        let text = label ?? "\(Int((ratio * 100).rounded(.down)))%"
        let w = min(CharacterWidth.of(text), area.width)
        let x = area.x + (area.width - w) / 2
        let y = area.y + area.height / 2
        var cx = x
        for ch in text {
            guard cx < area.right else { break }
            let s = cx < area.x + filled ? filledStyle : style
            let used = buffer.set(ch, x: cx, y: y, style: s, limit: area.right)
            if used == 0 { break }
            cx += used
        }
    }
}
