import TerminalUI
import Tether

/// One scenario of the lab: what it teaches, and the view model its sheet shows.
///
/// The lab presents it as a ``ScenarioSheet``, which owns everything scenarios share — the
/// frame, the title with the mode, the pattern and where it comes from, the explanation for
/// the mode, the size, the key hints — and asks the view model (``ScenarioContent``) only for
/// its status lines, its body and its keys. `make` runs inside
/// ``LabEnvironment/recording(_:)``, so everything the view model binds is recorded in the
/// lab's ledger. What a scenario says to users is in `Resources/scenarios.txt`
/// (``init(_:make:)`` and ``init(_:model:)`` read it); made by the lab only (the memberwise initializer is internal).
/// A plain value: `Sendable`.
public struct Scenario: Sendable {
    /// The screen id in dumps and the stack: `orientation`, `livedata`, `fuse`, `asyncsink`,
    /// `observed`, `lifecycle`, `accumulation`, `observation`.
    public let id: String
    /// The digit that presents it from home (1…8).
    public let number: Int
    public let title: String
    /// One line for the home list.
    public let summary: String
    /// The pattern it teaches, as Swift developers know it (`Task.store(in:)`).
    public let pattern: String
    /// Where that pattern comes from, in plain words ("from the Swift LiveData library").
    public let origin: String
    /// What the sheet says in bound mode: how the Tether way ends everything with the sheet.
    public let bound: String
    /// What the sheet says in leaky mode: what the naive twin leaves behind.
    public let leaky: String
    /// Makes the view model for a sheet presented in `mode`, whose lifecycle is `lifecycle`.
    let make:
        @MainActor @Sendable (_ mode: Mode, _ environment: LabEnvironment, _ lifecycle: Lifecycle) ->
            any ScenarioContent

    /// The explanation the sheet shows in `mode`.
    public func explanation(for mode: Mode) -> String { mode == .bound ? bound : leaky }
}

/// A scenario's view model as its sheet shows it: status lines, a body, its own keys.
///
/// Main-actor isolated; owned by its sheet, which ends with it.
@MainActor
protocol ScenarioContent: AnyObject {
    /// The state at a glance, under the explanation: one line each, wrapped to the sheet.
    func statusLines(style: LabStyle) -> [Line]
    /// Paints what fills the rest of the sheet (a log, progress bars). The default paints nothing.
    func renderBody(into buffer: inout Buffer, area: Rect, style: LabStyle)
    /// The rows the body needs to say something; the sheet gives up its explanation for them
    /// when the terminal is short. The default, for no body, is 0.
    var bodyRows: Int { get }
    /// The sheet's own keys, shown in the footer before the lab's. The default has none.
    var keyHints: [KeyHint] { get }
    /// Handles a key while the sheet is on top; returns true when it did (the sheet then asks
    /// for a frame). The default handles none.
    func handle(_ key: Key, context: ScreenContext) -> Bool
}

/// A view model whose sheet is all it needs of the lab: it binds to the sheet's lifetime
/// (`parent`), whatever the sheet's lifecycle does. ``Scenario/init(_:model:)`` makes one.
protocol ScenarioModel: ScenarioContent {
    @MainActor init(mode: Mode, environment: LabEnvironment, parent: Lifetime)
}

extension ScenarioContent {
    func renderBody(into buffer: inout Buffer, area: Rect, style: LabStyle) {}
    var bodyRows: Int { 0 }
    var keyHints: [KeyHint] { [] }
    func handle(_ key: Key, context: ScreenContext) -> Bool { false }
}
