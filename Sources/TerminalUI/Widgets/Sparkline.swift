/// A row of bars, one a value, each as tall as its share of the largest value: `▁▂▃▅▇█`. A nil
/// value (no data yet) is a blank; 0 is the lowest bar, so a flat line still reads as a line.
///
/// A plain value; rendering is pure. It paints the first row of its area; with more values than
/// columns it shows the last ones (the newest, for a history).
public struct Sparkline: Widget, Sendable {
    public var values: [Int?]
    public var style: Style
    /// Draws with ASCII (`_.:-=+*#`) instead of block elements, for a terminal that is not UTF-8.
    public var ascii: Bool

    public init(_ values: [Int?], style: Style = .plain, ascii: Bool = false) {
        self.values = values
        self.style = style
        self.ascii = ascii
    }

    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let asciiLevels: [Character] = ["_", ".", ":", "-", "=", "+", "*", "#"]

    /// The bars as text, one character a value.
    public var text: String {
        let levels = ascii ? Sparkline.asciiLevels : Sparkline.blocks
        let top = values.compactMap { $0 }.max() ?? 0
        return String(
            values.map { value -> Character in
                guard let value else { return " " }
                guard top > 0, value > 0 else { return levels[0] }
                // 1…7: any value above 0 stands above the baseline.
                let level = (value * (levels.count - 1) + top - 1) / top
                return levels[min(levels.count - 1, max(1, level))]
            })
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let shown = String(text.suffix(area.width))
        buffer.setString(shown, x: area.x, y: area.y, maxWidth: area.width, style: style)
    }
}
