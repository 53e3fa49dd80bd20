import TerminalUI
import Tether

/// Tether Lab: the home screen, the scenarios presented over it as sheets, the global keys, and
/// a frame of header, stack, inspector and footer — on any `Backend`.
///
/// The same object runs interactively (on an `NcursesBackend`, `application.run()`) and
/// headless (on a `TestBackend`, driven by ``HeadlessLab``). Global keys: `r` rotates, `m`
/// switches bound/leaky for the next sheet, `i` shows or hides the inspector, `?` opens help,
/// `Esc` dismisses the top sheet, `q` quits. Every binding a scenario makes is recorded in
/// ``environment``'s ledger, and each step is noted in its event log.
///
/// ```swift
/// let lab = LabApp(backend: TestBackend(width: 120, height: 40),
///                  environment: LabEnvironment(clock: ManualClock()))
/// lab.application.send(.character("1"))
/// ```
///
/// Frames are requested by the ledger's `onChange` and the environment's `onChange`; nothing
/// polls. Main-actor isolated; lives as long as its application runs.
@MainActor
public final class LabApp {
    /// Below this size the lab shows how big the terminal must be.
    public static let minimumSize = Size(width: 80, height: 24)

    public let application: Application
    public let environment: LabEnvironment
    /// The scenarios home lists (``Scenarios/all`` unless a test injects others).
    public let scenarios: [Scenario]
    public let keyMap: KeyMap
    /// How many times `environment.onChange` fired: headless runs watch it to know when work
    /// triggered by a key has settled.
    public private(set) var changeCount = 0

    let inspector = InspectorPanel()
    private let home: HomeScreen
    private var ledgerSubscription: AnyCancellable?

    /// Builds the lab on `backend` with home at the bottom of the stack.
    ///
    /// - Parameters:
    ///   - environment: The ledger, clock and device the lab runs with.
    ///   - scenarios: What home lists, in digit order.
    ///   - theme: `Theme.fromEnvironment(_:)` picks monochrome under `NO_COLOR`.
    public init(
        backend: any Backend, environment: LabEnvironment, scenarios: [Scenario] = Scenarios.all,
        theme: Theme = .standard, keyMap: KeyMap = .bundled
    ) {
        self.environment = environment
        self.scenarios = scenarios.sorted { $0.number < $1.number }
        self.keyMap = keyMap
        home = HomeScreen(scenarios: self.scenarios, environment: environment)
        let root = HostedScreen(home, role: .home, lab: nil)
        application = Application(backend: backend, root: root, theme: theme, minimumSize: LabApp.minimumSize)
        application.showsFooter = false
        root.lab = self
        home.onPresent = { [weak self] scenario in self?.present(scenario) }
        registerGlobalKeys()
        application.stack.onTeardown = { [weak self] event in self?.noteTeardown(event) }
        ledgerSubscription = environment.ledger.onChange { [weak application] in application?.requestRedraw()
        }
        environment.onChange = { [weak self] in
            guard let self else { return }
            self.changeCount += 1
            self.application.setNeedsDisplay()
        }
    }

    // MARK: Actions

    /// Presents `scenario` as a sheet in the current mode, its bindings recorded in the lab's ledger.
    public func present(_ scenario: Scenario) {
        guard !application.isFinished else { return }
        let mode = environment.mode
        environment.ledger.note("presented \(scenario.id) (\(mode.rawValue))")
        environment.recording {
            let screen = scenario.make(mode, environment)
            application.stack.present(HostedScreen(screen, role: .scenario(mode: mode), lab: self))
        }
        application.setNeedsDisplay()
    }

    /// Rotates the device and notes it.
    public func rotate() {
        environment.recording { environment.device.rotate() }
        environment.ledger.note("rotated → \(environment.device.orientation.rawValue)")
        application.setNeedsDisplay()
    }

    /// Switches the mode the next sheet is presented in.
    public func toggleMode() {
        environment.mode = environment.mode.toggled
        environment.ledger.note("mode → \(environment.mode.rawValue) for the next sheet")
        application.setNeedsDisplay()
    }

    /// Shows or hides the inspector panel.
    public func toggleInspector() {
        environment.showsInspector.toggle()
        application.setNeedsDisplay()
    }

    /// Opens the help overlay over the stack (or closes it when it is on top).
    public func toggleHelp() {
        if let top = application.stack.top as? HostedScreen, top.role == .help {
            dismissTop()
            return
        }
        let help = HelpScreen(text: keyMap.helpText, ledger: environment.ledger)
        application.stack.present(HostedScreen(help, role: .help, lab: self))
        application.setNeedsDisplay()
    }

    /// Dismisses the top sheet (never home). Returns false when only home is left.
    @discardableResult
    public func dismissTop() -> Bool {
        let dismissed = environment.recording { application.stack.dismissTop() }
        application.setNeedsDisplay()
        return dismissed
    }

    /// Tears every screen down, home included, as quitting does.
    public func tearDown() {
        environment.recording { application.stack.tearDownAll() }
    }

    /// The state as the design's JSON describes it.
    public func dump() -> LabDump {
        let snapshot = environment.ledger.snapshot()
        return LabDump(
            orientation: environment.device.orientation.rawValue, stack: application.stack.ids,
            mode: environment.mode.rawValue, counters: LabDump.Counters(snapshot.counters),
            leaks: snapshot.leaks.map(LabDump.Leak.init))
    }

    private func registerGlobalKeys() {
        application.onKey(.character("r")) { [unowned self] _ in rotate() }
        application.onKey(.character("m")) { [unowned self] _ in toggleMode() }
        application.onKey(.character("i")) { [unowned self] _ in toggleInspector() }
        application.onKey(.character("?")) { [unowned self] _ in toggleHelp() }
        application.onKey(.escape) { [unowned self] _ in dismissTop() }
        application.onKey(.character("q")) { $0.quit() }
    }

    private func noteTeardown(_ event: TeardownEvent) {
        guard event.step == .release, scenarios.contains(where: { $0.id == event.screenID }) else { return }
        environment.ledger.note("dismissed \(event.screenID)")
    }

    // MARK: Drawing

    /// Paints the lab's frame: header, the stack (home, then each sheet over it), the inspector
    /// (right of the stack, or below it when the terminal is narrow), help over both, footer.
    func paintFrame(into buffer: inout Buffer, area: Rect, theme: Theme) {
        let rows = area.rows([.fixed(1), .fill(), .fixed(1)])
        let hosts = application.stack.screens.compactMap { $0 as? HostedScreen }
        paintHeader(into: &buffer, area: rows[0], theme: theme, hosts: hosts)
        let body = rows[1]
        var main = body
        if environment.showsInspector {
            let parts: [Rect]
            if body.width >= 110 {
                parts = body.columns([.fill(), .fixed(max(48, body.width * 9 / 20))])
            } else {
                parts = body.rows([.fill(), .percentage(50)])
            }
            main = parts[0]
            inspector.render(
                environment.ledger.snapshot(), into: &buffer, area: parts[1], style: LabStyle(theme: theme))
        } else {
            inspector.skipFrame(environment.ledger.counters)
        }
        for host in hosts {
            switch host.role {
            case .home:
                host.content.render(into: &buffer, area: main, theme: theme)
            case .scenario:
                let rect = LabApp.rect(for: host.content.presentation, in: main)
                buffer.fill(rect, style: theme.text)
                host.content.render(into: &buffer, area: rect, theme: theme)
            case .help:
                let rect = body.centered(Size(width: min(body.width, 84), height: body.height))
                buffer.fill(rect, style: theme.text)
                host.content.render(into: &buffer, area: rect, theme: theme)
            }
        }
        let context: KeyMap.Context =
            switch hosts.last?.role {
            case .scenario: .sheet
            case .help: .help
            default: .home
            }
        let hints = LabApp.fit(
            local: (hosts.last?.content.keyHints ?? []) + keyMap.hints(for: context, includingGlobal: false),
            global: keyMap.hints(for: .global), width: rows[2].width)
        KeyHintBar(hints, theme: theme).render(into: &buffer, area: rows[2])
    }

    /// The footer's hints for `width`: the screen's own first, then the global keys; when they
    /// do not all fit, screen hints are dropped from the end so the global keys (q above all)
    /// stay visible.
    static func fit(local: [KeyHint], global: [KeyHint], width: Int) -> [KeyHint] {
        func needed(_ hints: [KeyHint]) -> Int {
            hints.reduce(0) { $0 + CharacterWidth.of($1.key) + 1 + CharacterWidth.of($1.label) } + 2
                * max(0, hints.count - 1)
        }
        var local = local
        while !local.isEmpty, needed(local + global) > width { local.removeLast() }
        return local + global
    }

    /// Where a sheet of `presentation` goes in `area` (as `Application` places sheets).
    static func rect(for presentation: Presentation, in area: Rect) -> Rect {
        switch presentation {
        case .fullScreen:
            return area
        case .sheet(let wp, let hp):
            let size = Size(
                width: max(min(area.width, 10), area.width * wp / 100),
                height: max(min(area.height, 3), area.height * hp / 100))
            return area.centered(size)
        }
    }

    private func paintHeader(into buffer: inout Buffer, area: Rect, theme: Theme, hosts: [HostedScreen]) {
        let style = LabStyle(theme: theme)
        buffer.fill(area, style: style.bar)
        let mode = environment.mode
        var spans: [Span] = [
            Span(" Tether Lab ", style: theme.title),
            Span("  orientation "),
            Span(environment.device.orientation.rawValue, style: theme.accent),
            Span("  mode "),
            Span(mode.rawValue, style: mode == .leaky ? style.leaky : theme.accent),
        ]
        if let top = hosts.last, case .scenario(let sheetMode) = top.role, sheetMode != mode {
            spans.append(Span(" (this sheet: \(sheetMode.rawValue))", style: theme.dimmed))
        }
        let x = buffer.setLine(Line(spans), x: area.x, y: area.y, maxWidth: area.width, base: style.bar)
        let path = " " + hosts.map(\.id).joined(separator: " › ") + " "
        let width = CharacterWidth.of(path)
        if area.right - width > x + 1 {
            buffer.setString(
                path, x: area.right - width, y: area.y, style: style.bar.patched(with: theme.dimmed))
        }
    }
}

/// The lab's own emphasis styles on top of a theme: leaks and zombies stand out in color, or
/// bold and reverse when the theme is monochrome (`NO_COLOR`).
struct LabStyle {
    let theme: Theme
    /// Leaks, leaked owners, zombie deliveries.
    var alarm: Style {
        theme.isMonochrome
            ? Style(modifiers: [.bold, .reverse]) : Style(foreground: .brightRed, modifiers: .bold)
    }
    /// The word "leaky" in the header.
    var leaky: Style {
        theme.isMonochrome
            ? Style(modifiers: [.bold, .reverse]) : Style(foreground: .yellow, modifiers: .bold)
    }
    /// Good news: back to zero.
    var calm: Style { theme.isMonochrome ? .plain : Style(foreground: .green) }
    /// The header row.
    var bar: Style { theme.isMonochrome ? .plain : Style(background: .black) }
}
