import TerminalUI

/// The lab's own emphasis styles on top of a theme: leaks and zombies stand out in color, or
/// bold and reverse when the theme is monochrome (`NO_COLOR`).
///
/// A plain value: `Sendable`.
struct LabStyle: Sendable {
    let theme: Theme
    /// Leaks, leaked owners, zombie deliveries.
    var alarm: Style {
        theme.isMonochrome
            ? Style(modifiers: [.bold, .reverse]) : Style(foreground: .brightRed, modifiers: .bold)
    }
    /// The word "leaky", and what the leaky twin does.
    var leaky: Style {
        theme.isMonochrome
            ? Style(modifiers: [.bold, .reverse]) : Style(foreground: .yellow, modifiers: .bold)
    }
    /// Good news: back to zero.
    var calm: Style { theme.isMonochrome ? .plain : Style(foreground: .green) }
    /// The header's background.
    var bar: Style { theme.isMonochrome ? .plain : Style(background: .black) }
    /// Whether lines are drawn in plain ASCII (a terminal that is not UTF-8).
    var isASCII: Bool { theme.lines == .ascii }
}
