import TerminalUI

/// The lab's header: the simulated device drawn in its orientation beside the title, the
/// orientation and the mode, a line on the drawing, and the stack's path.
///
/// Pressing `r` is seen: the phone stands upright in portrait (its camera, `•`, on top) and
/// upside down (camera below), and lies on its side in the landscapes (camera on the left in
/// landscapeLeft, on the right in landscapeRight). Plain ASCII where the terminal is not UTF-8.
/// A plain value, made for one frame.
struct LabHeader {
    /// Rows the header takes: as tall as the drawing.
    static let height = 3

    let orientation: Orientation
    /// The mode of the next sheet.
    let mode: Mode
    /// The mode of the topmost sheet, when it differs from ``mode``.
    let sheetMode: Mode?
    /// The stack's screen ids, bottom first.
    let path: [String]

    func render(into buffer: inout Buffer, area: Rect, style: LabStyle) {
        let theme = style.theme
        let bar = style.bar
        buffer.fill(area, style: bar)
        let device = LabHeader.device(orientation, ascii: style.isASCII)
        let deviceWidth = 7
        let left = area.x + 1 + (deviceWidth - CharacterWidth.of(device[0])) / 2
        for (row, line) in device.enumerated() where row < area.height {
            var x = left
            for character in line {
                let mark = character == "•" || character == "o"
                x += buffer.set(
                    character, x: x, y: area.y + row,
                    style: bar.patched(with: mark ? theme.accent : theme.border),
                    limit: area.right)
            }
        }
        let x = area.x + deviceWidth + 3
        var title = [
            TextSpan("Tether Lab", style: theme.title), TextSpan("   orientation "),
            TextSpan(orientation.rawValue, style: theme.accent), TextSpan("   mode "),
            TextSpan(mode.rawValue, style: mode == .leaky ? style.leaky : theme.accent),
        ]
        if let sheetMode {
            title.append(TextSpan(" (this sheet: \(sheetMode.rawValue))", style: theme.dimmed))
        }
        let mark = style.isASCII ? "o" : "•"
        let lines = [
            Line(title),
            Line("the simulated device: \(mark) marks its top; r rotates it", style: theme.dimmed),
            Line(path.joined(separator: style.isASCII ? " > " : " › "), style: theme.dimmed),
        ]
        for (row, line) in lines.enumerated() where row < area.height {
            buffer.setLine(line, x: x, y: area.y + row, maxWidth: max(0, area.right - x), base: bar)
        }
    }

    /// The phone in `orientation`, three rows: upright for the portraits, on its side for the
    /// landscapes, its camera (`•`, or `o` in ASCII) marking which end is up.
    static func device(_ orientation: Orientation, ascii: Bool) -> [String] {
        let rows: [String] =
            switch orientation {
            case .portrait: ["╭•╮", "│ │", "╰─╯"]
            case .portraitUpsideDown: ["╭─╮", "│ │", "╰•╯"]
            case .landscapeLeft: ["╭─────╮", "•     │", "╰─────╯"]
            case .landscapeRight: ["╭─────╮", "│     •", "╰─────╯"]
            }
        guard ascii else { return rows }
        return rows.map { row in
            String(
                row.map { character -> Character in
                    switch character {
                    case "╭", "╮", "╰", "╯": "+"
                    case "─": "-"
                    case "│": "|"
                    case "•": "o"
                    default: character
                    }
                })
        }
    }
}
