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
    private var scroll = 0
    /// The page and the wrapped text's length at the last frame, for PageDown and End.
    private var lastPage = 10
    private var total = 0

    init(text: String, ledger: Ledger) {
        self.text = text
        lifecycle = Lifecycle(ledger: ledger)
    }

    /// Over the stack and the inspector, at most 84 columns wide.
    var presentation: Presentation { .overlay(maxWidth: 84) }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        if key == .character("?") || key == .escape {
            context.dismiss()
            return true
        }
        guard let step = key == .character(" ") ? lastPage : key.navigationStep(page: lastPage, limit: total)
        else { return false }
        scroll = max(0, scroll + step)
        return true
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let inner = Block(title: " Help — ? or Esc closes ", theme: theme).render(
            into: &buffer, area: area, padding: 1)
        guard !inner.isEmpty else { return }
        let paragraph = Paragraph(text, style: theme.text)
        total = paragraph.lines.reduce(0) { $0 + Paragraph.wrap($1, width: inner.width).count }
        lastPage = max(1, inner.height - 1)
        scroll = min(scroll, max(0, total - inner.height))
        var shown = paragraph
        shown.scroll = scroll
        shown.render(into: &buffer, area: inner)
    }
}
