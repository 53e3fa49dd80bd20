// A tiny app that exercises TerminalUI's run loop, for trying it by hand and for the
// end-to-end tests: a counter in a bordered block, Enter presents a sheet, Esc dismisses
// it, q quits. `--headless --keys "Enter Esc"` drives it without a terminal and prints the screen.
import Glibc
import TerminalUI
import Tether

@MainActor
final class CounterScreen: Screen {
    let lifecycle = Lifecycle()
    let id = "home"
    let title = "Counter"
    var count = 0
    var lastResult = "none"

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: "Counter", theme: theme)
        block.render(into: &buffer, area: area)
        let text: [Line] = [
            Line([Span("count: "), Span("\(count)", style: theme.accent)]),
            Line("last sheet result: \(lastResult)"),
            Line("wide: 中文 😀"),
        ]
        Paragraph(text, style: theme.text).render(into: &buffer, area: block.inner(area))
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        switch key {
        case .character("+"), .character(" "), .up:
            count += 1
        case .character("-"), .down:
            count -= 1
        case .enter:
            context.present(SheetScreen(count: count)) { [weak self] result in
                self?.lastResult = (result as? String) ?? "nil"
            }
        default:
            return false
        }
        return true
    }

    var keyHints: [KeyHint] { [KeyHint("+", "count"), KeyHint("Enter", "sheet")] }
}

@MainActor
final class SheetScreen: Screen {
    let lifecycle = Lifecycle()
    let id = "sheet"
    let title = "Sheet"
    let count: Int
    init(count: Int) { self.count = count }
    var presentation: Presentation { .sheet(widthPercent: 60, heightPercent: 50) }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: "Sheet", theme: theme)
        block.render(into: &buffer, area: area)
        Paragraph("A sheet over count \(count). Esc closes it; y closes it with a result.")
            .render(into: &buffer, area: block.inner(area))
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        if key == .character("y") {
            context.dismiss(result: "yes")
            return true
        }
        return false
    }

    var keyHints: [KeyHint] { [KeyHint("y", "yes"), KeyHint("Esc", "close")] }
}

@MainActor
func makeApp(backend: any Backend, theme: Theme) -> Application {
    let app = Application(backend: backend, root: CounterScreen(), theme: theme, minimumSize: Size(width: 30, height: 8))
    app.onKey(.character("q"), hint: "quit") { $0.quit() }
    return app
}

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = Terminal.environment
var theme = Theme.fromEnvironment(environment)

if arguments.first == "--headless" {
    var keys: [Key] = []
    if let i = arguments.firstIndex(of: "--keys"), i + 1 < arguments.count {
        switch Key.parse(arguments[i + 1]) {
        case .success(let k): keys = k
        case .failure(let e):
            Terminal.printError("tui-demo: \(e)")
            exit(2)
        }
    }
    let backend = TestBackend(width: 40, height: 12)
    let app = makeApp(backend: backend, theme: theme)
    app.send(keys)
    app.render()
    for line in app.textLines { print(line) }
    exit(0)
}

if let message = Terminal.requireTTY(program: "tui-demo") {
    Terminal.printError(message)
    exit(2)
}

do {
    let backend = try NcursesBackend(options: .init(colors: !theme.isMonochrome))
    if !backend.isUnicode { theme = theme.ascii }
    makeApp(backend: backend, theme: theme).runMain()
} catch {
    Terminal.printError("tui-demo: \(error)")
    exit(1)
}
