import TerminalUI
import Tether

/// The help overlay (`?`): the bundled help text with the key table from the key map, drawn
/// over the stack. ↑/↓, PageUp/PageDown scroll; `?` or `Esc` close it.
///
/// Binds nothing. Main-actor isolated; lives while it is on the stack.
@MainActor
final class HelpScreen: Screen {
    let lifecycle: Lifecycle
    let id = "help"
    let title = "Help"
    let text: String
    /// The text reflowed: its paragraphs fill the overlay's width, whatever the terminal's.
    private let lines: [Line]
    private var scroll = ParagraphScroll()

    init(text: String, ledger: Ledger) {
        self.text = text
        lines = Paragraph.reflowed(text)
        lifecycle = Lifecycle(ledger: ledger)
    }

    /// Over the stack and the inspector, at most 84 columns wide.
    var presentation: Presentation { .overlay(maxWidth: 84) }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        if key == .character("?") || key == .escape {
            context.dismiss()
            return true
        }
        return scroll.handle(key)
    }

    func handle(mouse: MouseEvent, context: ScreenContext) -> Bool { scroll.handle(mouse) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let inner = Block(title: " Help — ? or Esc closes ", theme: theme).render(
            into: &buffer, area: area, padding: 1)
        guard !inner.isEmpty else { return }
        scroll.render(Paragraph(lines, style: theme.text), into: &buffer, area: inner)
    }
}
