/// Characters used to draw borders: Unicode box drawing or an ASCII fallback.
///
/// A plain value: `Sendable`.
public struct LineSet: Hashable, Sendable {
    public var horizontal: Character
    public var vertical: Character
    public var topLeft: Character
    public var topRight: Character
    public var bottomLeft: Character
    public var bottomRight: Character

    public static let unicode = LineSet(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
    public static let rounded = LineSet(
        horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯")
    public static let ascii = LineSet(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")
}

/// The styles an app draws with: colors, or monochrome (`NO_COLOR`) with bold and reverse
/// for emphasis, and the line set for borders.
///
/// A plain value: `Sendable`.
public struct Theme: Hashable, Sendable {
    public var text: Style
    public var dimmed: Style
    public var border: Style
    public var title: Style
    public var highlight: Style
    public var accent: Style
    public var warning: Style
    public var error: Style
    public var gaugeFilled: Style
    public var hintKey: Style
    public var hintLabel: Style
    public var lines: LineSet
    /// True when output must not use colors.
    public var isMonochrome: Bool

    public static let standard = Theme(
        text: .plain, dimmed: Style(foreground: .gray), border: Style(foreground: .cyan),
        title: Style(foreground: .brightCyan, modifiers: .bold),
        highlight: Style(foreground: .black, background: .cyan, modifiers: .bold),
        accent: Style(foreground: .yellow, modifiers: .bold), warning: Style(foreground: .yellow),
        error: Style(foreground: .brightRed, modifiers: .bold), gaugeFilled: Style(foreground: .black, background: .green),
        hintKey: Style(foreground: .black, background: .cyan), hintLabel: .plain, lines: .unicode,
        isMonochrome: false)

    public static let monochrome = Theme(
        text: .plain, dimmed: .dim, border: .plain, title: .bold, highlight: Style(modifiers: [.reverse, .bold]),
        accent: .bold, warning: .bold, error: Style(modifiers: [.bold, .underline]), gaugeFilled: .reverse,
        hintKey: .reverse, hintLabel: .plain, lines: .unicode, isMonochrome: true)

    /// The same theme with ASCII borders.
    public var ascii: Theme {
        var t = self
        t.lines = .ascii
        return t
    }

    /// Picks a theme from the environment: `NO_COLOR` (any non-empty value) → monochrome;
    /// `TUI_ASCII` (non-empty) or `TERM` of `dumb`/`vt52`/`vt100`, or a non-UTF-8 terminal → ASCII borders.
    public static func fromEnvironment(_ env: [String: String], unicode: Bool = true) -> Theme {
        var theme = (env["NO_COLOR"].map { !$0.isEmpty } ?? false) ? Theme.monochrome : Theme.standard
        let term = env["TERM"] ?? ""
        if !unicode || !(env["TUI_ASCII"] ?? "").isEmpty || ["dumb", "vt52", "vt100"].contains(term) {
            theme.lines = .ascii
        }
        return theme
    }
}
