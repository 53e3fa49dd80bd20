import Dispatch
import Foundation
import Synchronization
import Tether

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal app: a screen stack in a frame (an optional header and side panel, a footer of key
/// hints) drawn by a renderer on a backend, fed keys, mouse events and resizes.
///
/// Run it interactively on an `NcursesBackend` with `run()` / `runMain()`, or drive it step by
/// step on a `TestBackend` with `send(_:)`, `resize(to:)`, `render()` and read `textLines`.
/// Input is never refused: injected events are handled like terminal ones.
///
/// Keys go to the top screen first, then to global keys (`onKey`), then to the defaults
/// (Esc dismisses the top sheet, Ctrl-C quits). On a terminal, Ctrl-Z comes before all of them:
/// as in every full-screen program, it gives the terminal back to the shell and stops the
/// process; the shell's `fg` brings it back, redrawn. Frames are coalesced: any number of
/// changes between two frames give one frame, at most 60 a second. `requestRedraw()` may
/// be called from any thread. Main-actor isolated otherwise; lives until its run ends.
@MainActor
public final class Application {
    public let renderer: Renderer
    public let stack: ScreenStack
    public var theme: Theme
    /// Below this size the app shows "needs W×H, have w×h" instead of its screens.
    public var minimumSize: Size
    /// Drawn above the screens, if any.
    public var header: Header?
    /// Drawn beside (or below) the screens, if any.
    public var sidePanel: SidePanel?
    /// The footer's hints for the top screen, before the global keys' hints. The default is
    /// the screen's own `keyHints`.
    public var footerHints: @MainActor (any Screen) -> [KeyHint] = { $0.keyHints }
    /// Whether text is being typed (a filter): the screen or panel with the keys takes every
    /// character, global keys' included, so the footer shows its hints alone.
    public var isTyping: @MainActor () -> Bool = { false }
    /// Whether the side panel has the focus: it then takes keys before the top screen (see
    /// `SidePanel`). Set it to move the focus; it stays set while the panel is hidden, but the
    /// panel takes keys only while it is shown.
    public var sidePanelHasFocus = false
    /// Called once when an interactive run ends, after the terminal is restored and before the
    /// process exits or re-raises the signal that ended it: where a program removes what it
    /// made (a served socket) however it ends.
    public var onShutdown: (@MainActor () -> Void)?

    private struct GlobalKey {
        var hint: KeyHint?
        var action: @MainActor (ScreenContext) -> Void
    }
    private var globalKeys: [Key: GlobalKey] = [:]
    private var globalKeyOrder: [Key] = []
    private var needsDisplay = true
    private var exitCode: Int32?
    private var exitSignal: Int32?
    private var loop: RunLoopDriver?
    private var wakeups: [Wakeup] = []
    private var nextWakeupID = 0
    /// Whether a redraw requested from another thread is already on its way to the main actor.
    private let redrawPosted = Mutex(false)

    private struct Wakeup {
        var id: Int
        var deadline: ContinuousClock.Instant
        var action: @MainActor () -> Void
    }

    public init(backend: any Backend, root: any Screen, theme: Theme = .standard, minimumSize: Size = .zero) {
        renderer = Renderer(backend: backend)
        stack = ScreenStack(root: root)
        self.theme = theme
        self.minimumSize = minimumSize
    }

    public var backend: any Backend { renderer.backend }
    /// True once `quit` was called.
    public var isFinished: Bool { exitCode != nil }

    // MARK: Global keys

    /// Handles `key` when the top screen does not; `hint` is shown in the footer.
    public func onKey(_ key: Key, hint: String? = nil, _ action: @escaping @MainActor (ScreenContext) -> Void)
    {
        if globalKeys[key] == nil { globalKeyOrder.append(key) }
        globalKeys[key] = GlobalKey(hint: hint.map { KeyHint(key.name, $0) }, action: action)
    }

    /// The hints of the global keys, in registration order.
    public var globalHints: [KeyHint] { globalKeyOrder.compactMap { globalKeys[$0]?.hint } }

    // MARK: Input

    /// Handles a key as if typed. Returns true when something handled it.
    @discardableResult
    public func send(_ key: Key) -> Bool { handle(.key(key)) }

    /// Handles keys in order, stopping if the app quits.
    public func send(_ keys: [Key]) {
        for k in keys where !isFinished { send(k) }
    }

    /// Handles an event as if the terminal sent it. Returns true when something handled it.
    @discardableResult
    public func send(_ event: Event) -> Bool { handle(event) }

    /// Resizes the backend where it can be (`Backend.resize(to:)`) and lays the frame out anew.
    public func resize(to size: Size) {
        backend.resize(to: size)
        renderer.invalidate()
        setNeedsDisplay()
    }

    private func handle(_ event: Event) -> Bool {
        if event == .key(.ctrl("z")), let terminal = backend.interactive {
            suspend(terminal)
            return true
        }
        guard let top = stack.top else { return false }
        let context = ScreenContext(application: self, screen: top)
        var handled = false
        switch event {
        case .key(let key):
            if sidePanelTakesKeys, let panel = sidePanel?.handle, panel(key, context) {
                handled = true
            } else if top.handle(key, context: context) {
                handled = true
            } else if let g = globalKeys[key] {
                g.action(context)
                handled = true
            } else if key == .escape {
                handled = stack.dismissTop()
            } else if key == .ctrl("c") {
                quit()
                handled = true
            }
        case .mouse(let mouse):
            handled = top.handle(mouse: mouse, context: context)
        case .resize:
            renderer.invalidate()
            handled = true
        }
        setNeedsDisplay()
        return handled
    }

    /// Whether keys go to the side panel first: it has the focus, the frame shows it, and no
    /// overlay covers it.
    public var sidePanelTakesKeys: Bool {
        guard sidePanelHasFocus, isSidePanelShown, sidePanel?.handle != nil, let top = stack.top else {
            return false
        }
        if case .overlay = top.presentation { return false }
        return true
    }

    // MARK: Drawing

    /// Marks the app as needing a frame (main actor). The run loop draws it, coalesced.
    public func setNeedsDisplay() {
        needsDisplay = true
        loop?.scheduleFrame()
    }

    /// Asks for a frame from any thread; coalesced with other requests.
    public nonisolated func requestRedraw() {
        let post = redrawPosted.withLock { posted -> Bool in
            if posted { return false }
            posted = true
            return true
        }
        guard post else { return }
        Task { @MainActor [weak self] in
            guard let self else { return }
            self.redrawPosted.withLock { $0 = false }
            self.setNeedsDisplay()
        }
    }

    /// Draws a frame now (headless use, or tests); only changed cells reach the backend.
    public func render() {
        needsDisplay = false
        renderer.draw { buffer in self.paint(into: &buffer) }
    }

    /// Draws a frame only if something changed since the last one.
    public func renderIfNeeded() {
        if needsDisplay { render() }
    }

    /// The last frame as text lines (full width).
    public var textLines: [String] { renderer.lastFrame.textLines }

    // MARK: Time

    /// Calls `action` on the main actor once `delay` has passed (the run loop sleeps until
    /// then; no timer is armed when nothing is pending). Returns an id for `cancelWakeup`.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void = {}) -> Int {
        schedule(at: ContinuousClock.now + delay, action)
    }

    /// Calls `action` on the main actor at `deadline`, then draws a frame.
    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @MainActor () -> Void = {})
        -> Int
    {
        nextWakeupID += 1
        wakeups.append(Wakeup(id: nextWakeupID, deadline: deadline, action: action))
        wakeups.sort { $0.deadline < $1.deadline }
        loop?.armTimer()
        return nextWakeupID
    }

    /// Cancels a scheduled wake-up.
    public func cancelWakeup(_ id: Int) {
        wakeups.removeAll { $0.id == id }
        loop?.armTimer()
    }

    /// The earliest pending wake-up, if any.
    public var nextDeadline: ContinuousClock.Instant? { wakeups.first?.deadline }

    /// Runs the wake-ups due at `now` (the run loop calls this; headless drivers may too).
    public func runDueWakeups(now: ContinuousClock.Instant = .now) {
        while let first = wakeups.first, first.deadline <= now {
            wakeups.removeFirst()
            first.action()
            setNeedsDisplay()
        }
    }

    // MARK: Running

    /// Ends the run loop with `code` after the current event.
    public func quit(code: Int32 = 0) {
        if exitCode == nil { exitCode = code }
        loop?.stop()
    }

    /// Runs interactively until `quit`, a signal (SIGINT, SIGTERM, SIGHUP) or the end of input;
    /// restores the terminal and returns the exit code. After a signal it re-raises it
    /// instead of returning. When the terminal goes away without a SIGHUP (its input reaches
    /// end-of-file or hangs up), it returns 129, the code a shell gives a process ended by
    /// SIGHUP, so scripts can tell it from `quit`. The backend must be interactive
    /// (`Backend.interactive`, an `NcursesBackend`), and the main actor's jobs must run on the
    /// main OS thread: prefer `runMain()`.
    public func run() async -> Int32 {
        guard let terminal = backend.interactive else {
            preconditionFailure(
                "Application.run needs an interactive backend; drive a TestBackend with send/render")
        }
        let code: Int32 = await withCheckedContinuation { continuation in
            let driver = RunLoopDriver(app: self, backend: terminal) { code in
                continuation.resume(returning: code)
            }
            loop = driver
            driver.start()
        }
        loop = nil
        stack.tearDownAll()
        terminal.shutdown()
        let shutdown = onShutdown
        onShutdown = nil
        shutdown?()
        if let s = exitSignal { terminal.reraise(s) }
        return code
    }

    /// Runs interactively from synchronous top-level code on the main thread and exits the
    /// process with the run's code: the main thread parks in ``MainRunLoop``, so the main actor's
    /// jobs, and every ncurses call, stay on it.
    public func runMain() -> Never {
        MainRunLoop.run { await self.run() }
    }

    // MARK: Run loop hooks

    /// A signal the run loop read (the backend has already re-read its size after SIGWINCH).
    func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGWINCH:
            renderer.invalidate()
            setNeedsDisplay()
        case SIGTSTP:
            if let terminal = backend.interactive { suspend(terminal) }
        case SIGCONT:
            // Continued — after a stop this program did not ask for (SIGSTOP), too: a shell may
            // have set its own modes and written on the screen meanwhile.
            backend.interactive?.resume()
            renderer.invalidate()
            setNeedsDisplay()
        default:
            exitSignal = signal
            quit(code: 128 + signal)
        }
    }

    /// Stops the process as job control asks (Ctrl-Z, SIGTSTP), the terminal given back; once
    /// continued, repaints every cell.
    private func suspend(_ terminal: any InteractiveBackend) {
        terminal.suspend()
        renderer.invalidate()
        setNeedsDisplay()
    }

    /// The terminal's input ended (end-of-file or hang-up) without a signal: quit as SIGHUP would.
    func inputEnded() {
        quit(code: 128 + SIGHUP)
    }

    func drawFrameIfNeeded() {
        if needsDisplay && !isFinished { render() }
    }

    var hasPendingFrame: Bool { needsDisplay && !isFinished }
    var pendingExitCode: Int32? { exitCode }
}
