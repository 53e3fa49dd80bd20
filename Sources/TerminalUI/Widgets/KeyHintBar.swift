/// A footer of key hints: "q quit  Esc back", each key highlighted; hints that do not fit
/// whole are left out.
///
/// A plain value; rendering is pure.
public struct KeyHintBar: Widget, Sendable {
    public var hints: [KeyHint]
    public var keyStyle: Style
    public var labelStyle: Style

    public init(_ hints: [KeyHint], keyStyle: Style = .reverse, labelStyle: Style = .plain) {
        self.hints = hints
        self.keyStyle = keyStyle
        self.labelStyle = labelStyle
    }
    public init(_ hints: [KeyHint], theme: Theme) {
        self.init(hints, keyStyle: theme.hintKey, labelStyle: theme.hintLabel)
    }

    /// The columns `hints` take when they all fit: each key, a space and its label, two spaces
    /// between hints.
    public static func width(of hints: [KeyHint]) -> Int {
        hints.reduce(0) { $0 + CharacterWidth.of($1.key) + 1 + CharacterWidth.of($1.label) }
            + 2 * max(0, hints.count - 1)
    }

    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        var x = area.x
        let y = area.y
        for (i, hint) in hints.enumerated() {
            let gap = i == 0 ? 0 : 2
            let needed = gap + CharacterWidth.of(hint.key) + 1 + CharacterWidth.of(hint.label)
            if x + needed > area.right { break }
            x += gap
            x = buffer.setString(hint.key, x: x, y: y, maxWidth: area.right - x, style: keyStyle)
            x += 1
            x = buffer.setString(hint.label, x: x, y: y, maxWidth: area.right - x, style: labelStyle)
        }
    }
}
