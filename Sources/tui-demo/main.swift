// A tiny app that exercises TerminalUI's run loop, for trying it by hand and for the
// end-to-end tests: a counter in a bordered block, Enter presents a sheet, Esc dismisses
// it, b bumps a counter from a background task (which asks for a redraw from off the main
// actor), q quits. `--headless --keys "Enter Esc"` drives it without a terminal and prints
// the screen. `TUI_DEMO_PARK=dispatch` parks the main thread in `dispatchMain()` instead of
// `runMain()`: a negative control for the tests (ncurses then runs on worker threads, which
// the backend's debug check catches).
import Dispatch
import Synchronization
import TerminalUI
import Tether

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bumped by background tasks; read when the home screen renders. Atomic, so Sendable.
final class BackgroundTicks: Sendable {
    let count = Atomic<Int>(0)
}

@MainActor
final class CounterScreen: Screen {
    let lifecycle = Lifecycle()
    let id = "home"
    let title = "Counter"
    var count = 0
    var lastResult = "none"
    let ticks = BackgroundTicks()

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let block = Block(title: "Counter", theme: theme)
        block.render(into: &buffer, area: area)
        let text: [Line] = [
            Line([TextSpan("count: "), TextSpan("\(count)", style: theme.accent)]),
            Line("last sheet result: \(lastResult)"),
            Line("wide: 中文 😀"),
            Line("background: \(ticks.count.load(ordering: .relaxed))"),
        ]
        Paragraph(text, style: theme.text).render(into: &buffer, area: block.inner(area))
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        switch key {
        case .character("+"), .character(" "), .up:
            count += 1
        case .character("-"), .down:
            count -= 1
        case .character("b"):
            // Bump off the main actor; only `requestRedraw()` brings the change to the screen.
            let app = context.application
            let ticks = ticks
            Task.detached {
                ticks.count.add(1, ordering: .relaxed)
                app.requestRedraw()
            }
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
    let app = Application(
        backend: backend, root: CounterScreen(), theme: theme, minimumSize: Size(width: 30, height: 8))
    app.onKey(.character("q"), hint: "quit") { $0.quit() }
    return app
}

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = Terminal.environment
var theme = Theme.fromEnvironment(environment)

if arguments.first == "--headless" {
    var keys: [Key] = []
    if let i = arguments.firstIndex(of: "--keys"), i + 1 < arguments.count {
        do {
            keys = try KeyScript.parse(arguments[i + 1]).compactMap { step in
                if case .key(let key) = step { key } else { nil }
            }
        } catch {
            Terminal.printError("tui-demo: \(error)")
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
    let app = makeApp(backend: backend, theme: theme)
    if environment["TUI_DEMO_PARK"] == "dispatch" {
        Task { @MainActor in exit(await app.run()) }
        dispatchMain()
    }
    app.runMain()
} catch {
    Terminal.printError("tui-demo: \(error)")
    exit(1)
}
