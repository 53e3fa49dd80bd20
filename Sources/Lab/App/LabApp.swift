import TerminalUI
import Tether
import TetherInspector

/// Tether Lab: the home screen, the scenarios presented over it as sheets, the global keys, and
/// the frame's parts — the header with the device, the inspector beside the stack, the footer's
/// hints — on any `Backend`.
///
/// The same object runs interactively (on an `NcursesBackend`, `application.run()`) and
/// headless (on a `TestBackend`, driven by ``HeadlessLab``). Global keys: `r` rotates, `m`
/// switches bound/leaky for the next sheet, `i` shows or hides the inspector, `Tab` gives it the
/// keys (to select a leak and open its report), `?` opens help, `Esc` dismisses the top sheet,
/// `q` quits. Every binding a scenario makes is recorded in ``environment``'s ledger, and each
/// step is noted in its event log. The inspector is the one `tether-lab attach` shows, fed with
/// this ledger's snapshots as the wire model (`InspectorSnapshot`).
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
    /// Whether the inspector panel is shown (`i` toggles it).
    public private(set) var showsInspector = true
    /// How many times `environment.onChange` fired: headless runs watch it to know when work
    /// triggered by a key has settled.
    public private(set) var changeCount = 0

    let inspector = Inspector()
    private let inspectorFeed = InspectorFeed()
    /// Whether the panel's frames may feed the inspector the ledger's head rather than its whole
    /// snapshot (`InspectorFeed`); tests turn it off to compare the frames of both.
    var readsLedgerHeads = true
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
        application = Application(backend: backend, root: home, theme: theme, minimumSize: LabApp.minimumSize)
        home.onPresent = { [weak self] scenario in self?.present(scenario) }
        registerGlobalKeys()
        installFrame()
        application.stack.onTeardown = { [weak self] event in self?.noteTeardown(event) }
        ledgerSubscription = environment.ledger.onChange { [weak application, inspectorFeed] in
            inspectorFeed.ledgerChanged()
            application?.requestRedraw()
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
            application.stack.present(ScenarioSheet(scenario, mode: mode, environment: environment))
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

    /// Shows or hides the inspector panel; hiding it gives the keys back to the screens.
    public func toggleInspector() {
        showsInspector.toggle()
        if showsInspector { feedInspector() } else { application.sidePanelHasFocus = false }
        application.setNeedsDisplay()
    }

    /// Gives the inspector the keys (showing it if hidden), with its first row selected.
    public func focusInspector() {
        showsInspector = true
        application.sidePanelHasFocus = true
        // With the keys, the selection may go to any row: fed whole before it picks one.
        feedInspector()
        inspector.selectFirstIfNone()
        application.setNeedsDisplay()
    }

    /// Gives the inspector the ledger as it is now. Each frame that draws the panel does, with the
    /// panel's height as `rows`: while the inspector shows the head of each list (it has not the
    /// keys, nor a row selected, filtered or collapsed), no list draws more rows than that, and
    /// the ledger's head is enough. A hidden panel is not drawn, so showing it feeds it first,
    /// before anything picks a row from it.
    private func feedInspector(rows: Int? = nil) {
        let headOnly = readsLedgerHeads && !application.sidePanelTakesKeys && !inspector.needsEveryRow
        inspectorFeed.feed(
            inspector, from: environment.ledger, labChanges: changeCount, rows: headOnly ? rows : nil)
    }

    /// Whether the inspector has the keys.
    public var inspectorHasFocus: Bool { application.sidePanelHasFocus }

    /// A key for the inspector while it has the focus: what it asks for is done here.
    private func handleInspectorKey(_ key: Key, context: ScreenContext) -> Bool {
        switch inspector.handle(key) {
        case .ignored:
            return false
        case .handled:
            break
        case .openReport(let group):
            context.present(LeakReportScreen(group: group, ledger: environment.ledger))
        case .openGrowth(let report):
            context.present(GrowthReportScreen(report: report, ledger: environment.ledger))
        case .giveBackFocus:
            application.sidePanelHasFocus = false
        }
        application.setNeedsDisplay()
        return true
    }

    /// Opens the help overlay over the stack (or closes it when it is on top).
    public func toggleHelp() {
        if application.stack.top is HelpScreen {
            dismissTop()
            return
        }
        application.stack.present(HelpScreen(text: keyMap.helpText, ledger: environment.ledger))
        application.setNeedsDisplay()
    }

    /// Dismisses the top sheet (never home). Returns false when only home is left.
    @discardableResult
    public func dismissTop() -> Bool {
        let dismissed = environment.recording { application.stack.dismissTop() }
        application.setNeedsDisplay()
        return dismissed
    }

    /// Tears every screen down, home included, as quitting does, and lets go of the residents
    /// that end with the lab (the app session).
    public func tearDown() {
        environment.recording { application.stack.tearDownAll() }
        environment.releaseResidents()
    }

    /// The state as the design's JSON describes it.
    public func dump() -> LabDump {
        let snapshot = environment.ledger.snapshotRearmingOnChange()
        return LabDump(
            orientation: environment.device.orientation.rawValue, stack: application.stack.ids,
            mode: environment.mode.rawValue, counters: LabDump.Counters(snapshot.counters),
            leaks: snapshot.leaks.map(LabDump.Leak.init), growth: snapshot.growth.map(LabDump.Growth.init))
    }

    /// Registers the global keys in the key map's order, each with its hint from there: the key
    /// map names them as `--keys` does, read by the one key-name parser.
    private func registerGlobalKeys() {
        var actions: [Key: @MainActor (ScreenContext) -> Void] = [
            .character("r"): { [unowned self] _ in rotate() },
            .character("m"): { [unowned self] _ in toggleMode() },
            .character("i"): { [unowned self] _ in toggleInspector() },
            .tab: { [unowned self] _ in focusInspector() },
            .character("?"): { [unowned self] _ in toggleHelp() },
            .escape: { [unowned self] _ in dismissTop() },
            .character("q"): { $0.quit() },
        ]
        for binding in keyMap.bindings(in: .global) {
            guard let key = Key(name: binding.key), let action = actions.removeValue(forKey: key) else {
                continue
            }
            application.onKey(key, hint: binding.hint, action)
        }
        for (key, action) in actions { application.onKey(key, action) }
    }

    private func noteTeardown(_ event: TeardownEvent) {
        guard event.step == .release, scenarios.contains(where: { $0.id == event.screenID }) else { return }
        environment.ledger.note("dismissed \(event.screenID)")
    }

    // MARK: Frame

    /// The header with the device, the inspector as the side panel, the key map's hints in the footer.
    private func installFrame() {
        application.header = Application.Header(height: LabHeader.height) { [weak self] buffer, area, theme in
            self?.header.render(into: &buffer, area: area, style: LabStyle(theme: theme))
        }
        application.sidePanel = Application.SidePanel(
            placement: { [weak self] body in
                guard let self, showsInspector else { return nil }
                // Beside the stack where there is room for both, below it otherwise.
                return body.width >= 110
                    ? .trailing(width: max(48, body.width * 9 / 20)) : .bottom(height: body.height / 2)
            },
            render: { [weak self] buffer, area, theme in
                guard let self else { return }
                feedInspector(rows: area.height)
                let focused = application.sidePanelTakesKeys
                inspector.render(
                    into: &buffer, area: area, style: LabStyle(theme: theme),
                    title: focused ? " Inspector · keys here (Tab gives them back) " : " Inspector ",
                    focused: focused)
            },
            handle: { [weak self] key, context in self?.handleInspectorKey(key, context: context) ?? false },
            keyHints: { [weak self] in
                guard let self else { return [] }
                return keyMap.hints(for: inspector.isEditingFilter ? .filter : .inspector)
            })
        application.isTyping = { [weak self] in
            guard let self else { return false }
            return inspector.isEditingFilter && application.sidePanelTakesKeys
        }
        application.footerHints = { [weak self] screen in
            guard let self else { return screen.keyHints }
            let context: KeyMap.Context =
                switch screen {
                case is HomeScreen: .home
                case is HelpScreen: .help
                case is LeakReportScreen, is GrowthReportScreen: .report
                default: .sheet
                }
            return screen.keyHints + keyMap.hints(for: context)
        }
    }

    private var header: LabHeader {
        let screens = application.stack.screens
        let sheet = screens.last { $0 is ScenarioSheet } as? ScenarioSheet
        return LabHeader(
            orientation: environment.device.orientation, mode: environment.mode,
            sheetMode: sheet.map(\.mode).flatMap { $0 == environment.mode ? nil : $0 },
            path: screens.map(\.id))
    }
}
