import Tether

/// One step of tearing a screen down, in the fixed order the stack performs them.
public enum TeardownStep: String, Hashable, Sendable {
    /// The screen's tasks are cancelled (its lifecycle falls below started).
    case cancelTasks
    /// Its subscriptions end (its lifecycle reaches destroyed, ending its lifetime).
    case endSubscriptions
    /// The screens it presented are torn down, each in this same order.
    case dismissChildren
    /// The stack lets go of it and its presenter gets the result.
    case release
}

/// A teardown step of one screen.
public struct TeardownEvent: Hashable, Sendable, CustomStringConvertible {
    public var step: TeardownStep
    public var screenID: String
    public init(_ step: TeardownStep, _ screenID: String) {
        self.step = step
        self.screenID = screenID
    }
    public var description: String { "\(step.rawValue)(\(screenID))" }
}

/// The screens of an app, bottom first; only the top one gets keys.
///
/// Drives each screen's `Lifecycle`: a presented screen is created, started and resumed;
/// the one it covers falls back to started; a dismissed screen is torn down in the fixed
/// order cancel tasks → end subscriptions → dismiss children → release, and the screen
/// below is resumed. Screens dismissed together are never resumed on the way out.
///
/// The screen stack checkpoints the ledger at every dismissal: once the dismissed screens are
/// released, and before the screen below is resumed, it calls `checkpoint(scope:)` with the
/// dismissed screen's id on the ledger of its lifecycle. Each dismissal is one repetition of that
/// screen, so a long-lived owner that holds one more binding after every visit of a screen is
/// reported as growing, however many other screens the user visits between the visits
/// (`LedgerSnapshot.growth`, `Ledger.onGrowth`) with no code of the app's own. Dismissing an
/// overlay (help, a report: reading, not the app's work) is not a repetition and checkpoints
/// nothing, so that opening and closing one does not interrupt a growth being watched.
/// The stack holds its screens strongly until they are released. Main-actor isolated.
@MainActor
public final class ScreenStack {
    private struct Entry {
        var screen: any Screen
        var onResult: (@MainActor (Any?) -> Void)?
    }
    private var entries: [Entry] = []
    private var isTearingDown = false
    /// Every teardown step taken, oldest first (the last 1000).
    public private(set) var teardownLog: [TeardownEvent] = []
    /// Called with each teardown step as it happens.
    public var onTeardown: (@MainActor (TeardownEvent) -> Void)?

    public init(root: any Screen) {
        entries = [Entry(screen: root, onResult: nil)]
        root.lifecycle.move(to: .resumed)
    }

    /// The screens, bottom first.
    public var screens: [any Screen] { entries.map(\.screen) }
    /// Their ids, bottom first.
    public var ids: [String] { entries.map(\.screen.id) }
    public var top: (any Screen)? { entries.last?.screen }
    public var count: Int { entries.count }

    /// Presents `screen` on top. `onResult` is called with the dismissal result.
    public func present(_ screen: any Screen, onResult: (@MainActor (Any?) -> Void)? = nil) {
        guard !isTearingDown, !entries.contains(where: { $0.screen === screen }) else { return }
        let covered = top
        entries.append(Entry(screen: screen, onResult: onResult))
        covered?.lifecycle.move(to: .started)
        screen.lifecycle.move(to: .resumed)
    }

    /// Dismisses `screen` and every screen above it; the root cannot be dismissed.
    /// Unless `screen` is an overlay, its ledger is checkpointed once the screens are released;
    /// then its presenter's `onResult` gets `result`, and the screen below is resumed.
    public func dismiss(_ screen: any Screen, result: Any? = nil) {
        guard !isTearingDown, let index = entries.firstIndex(where: { $0.screen === screen }), index > 0
        else {
            return
        }
        isTearingDown = true
        let onResult = entries[index].onResult
        tearDown(from: index)
        isTearingDown = false
        if screen.presentation.isRepetition {
            screen.lifecycle.lifetime.ledger.checkpoint(scope: screen.id)
        }
        onResult?(result)
        top?.lifecycle.move(to: .resumed)
    }

    /// Dismisses the top screen (unless it is the root). Returns false when there was none to dismiss.
    @discardableResult
    public func dismissTop(result: Any? = nil) -> Bool {
        guard entries.count > 1, let top else { return false }
        dismiss(top, result: result)
        return true
    }

    private func tearDown(from index: Int) {
        let screen = entries[index].screen
        record(.cancelTasks, screen)
        screen.lifecycle.move(to: .created)
        record(.endSubscriptions, screen)
        screen.lifecycle.move(to: .destroyed)
        record(.dismissChildren, screen)
        if index + 1 < entries.count { tearDown(from: index + 1) }
        record(.release, screen)
        entries.remove(at: index)
    }

    private func record(_ step: TeardownStep, _ screen: any Screen) {
        let event = TeardownEvent(step, screen.id)
        teardownLog.append(event)
        if teardownLog.count > 1000 { teardownLog.removeFirst(teardownLog.count - 1000) }
        onTeardown?(event)
    }

    /// Tears every screen down, root included (when the app ends).
    public func tearDownAll() {
        guard !isTearingDown, !entries.isEmpty else { return }
        isTearingDown = true
        tearDown(from: 0)
        isTearingDown = false
    }
}

extension Presentation {
    /// Whether dismissing a screen presented so marks one repetition of the app's work (a
    /// checkpoint of the ledger): a full screen or a sheet does, an overlay does not.
    fileprivate var isRepetition: Bool {
        if case .overlay = self { false } else { true }
    }
}
