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
    private var lastPage = 10

    init(text: String, ledger: Ledger) {
        self.text = text
        lifecycle = Lifecycle(ledger: ledger)
    }

    var presentation: Presentation { .sheet(widthPercent: 90, heightPercent: 90) }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        switch key {
        case .character("?"), .escape:
            context.dismiss()
            return true
        case .up, .character("k"): scroll = max(0, scroll - 1)
        case .down, .character("j"): scroll += 1
        case .pageUp: scroll = max(0, scroll - lastPage)
        case .pageDown, .character(" "): scroll += lastPage
        case .home: scroll = 0
        default: return false
        }
        context.requestRedraw()
        return true
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: " Help — ? or Esc closes ", theme: theme)
        block.render(into: &buffer, area: area)
        let inner = block.inner(area).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let paragraph = Paragraph(text, style: theme.text)
        let total = paragraph.lines.reduce(0) { $0 + Paragraph.wrap($1, width: inner.width).count }
        lastPage = max(1, inner.height - 1)
        scroll = min(scroll, max(0, total - inner.height))
        var shown = paragraph
        shown.scroll = scroll
        shown.render(into: &buffer, area: inner)
    }

    var keyHints: [KeyHint] { [] }
}
