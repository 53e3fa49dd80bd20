/// A run of changed cells on one row: columns `x ..< x + count` of row `y`, in the
/// coordinates of the buffer being drawn.
///
/// A plain value: `Sendable`.
public struct CellRun: Hashable, Sendable {
    public var y: Int
    public var x: Int
    public var count: Int
    public init(y: Int, x: Int, count: Int) {
        self.y = y
        self.x = x
        self.count = count
    }
}

/// Where frames go: a terminal (`NcursesBackend`) or memory (`TestBackend`).
///
/// The `Renderer` hands a backend only the cells that changed since the last frame, then
/// calls `flush()` once per frame. What differs between backends is asked of the protocol,
/// never by casting: whether the size can be set (`resize(to:)`) and whether the backend
/// also reads input for the interactive run loop (`interactive`). Main-actor isolated: a
/// backend is used from the UI thread only.
@MainActor
public protocol Backend: AnyObject {
    /// The drawable size, in cells.
    var size: Size { get }
    /// Draws the cells of `buffer` covered by `runs`; nothing else on screen changes.
    /// A run never starts on the right half of a wide character.
    func draw(_ runs: [CellRun], from buffer: Buffer)
    /// Makes what was drawn visible (one terminal update per frame).
    func flush()
    /// Forgets what is on screen: the next frame repaints every cell.
    func clear()
    /// Shows the cursor at a position, or hides it (nil).
    func setCursor(_ position: Point?)
    /// Changes the size, where the backend owns it (an in-memory screen). A terminal's size is
    /// the terminal's: the default does nothing.
    func resize(to size: Size)
    /// The same backend as an input source for `Application.run()`, or nil (the default) for a
    /// backend that only draws.
    var interactive: (any InteractiveBackend)? { get }
}

extension Backend {
    public func resize(to size: Size) {}
    public var interactive: (any InteractiveBackend)? { nil }
}

/// A backend that also produces input: the interactive run loop reads from it.
///
/// Main-actor isolated.
@MainActor
public protocol InteractiveBackend: Backend {
    /// The descriptor to watch for readability (the terminal's input).
    var inputFileDescriptor: Int32 { get }
    /// Reads every event that is ready without blocking.
    func readEvents() -> [Event]
    /// Re-reads the terminal size after SIGWINCH and returns it.
    func updateSize() -> Size
    /// The read end of the pipe that signals (SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT)
    /// are written to.
    var signalFileDescriptor: Int32 { get }
    /// Reads the signal numbers delivered since the last call, without blocking.
    func readSignals() -> [Int32]
    /// Gives the terminal back and stops the process (job control: Ctrl-Z, SIGTSTP); returns
    /// once it is continued, the terminal taken again. The caller repaints.
    func suspend()
    /// Takes the terminal again after the process was continued by someone else (SIGCONT after
    /// SIGSTOP). The caller repaints.
    func resume()
    /// Leaves full-screen mode and restores the terminal. Idempotent.
    func shutdown()
    /// Ends the process by `signal`, the way the signal asked (after `shutdown()`).
    func reraise(_ signal: Int32) -> Never
}
