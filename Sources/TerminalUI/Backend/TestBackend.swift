/// An in-memory backend: keeps what would be on screen, readable as text and styles.
///
/// Used by tests and by headless runs. Counts what the renderer sent, so tests can assert
/// that only changed cells were drawn. Main-actor isolated, like every backend.
@MainActor
public final class TestBackend: Backend {
    /// What is "on screen".
    public private(set) var screen: Buffer
    /// Number of `flush()` calls (frames presented).
    public private(set) var flushCount = 0
    /// Number of cells handed over by the last frame's `draw` calls.
    public private(set) var lastDrawnCellCount = 0
    /// Number of cells handed over since creation.
    public private(set) var totalDrawnCellCount = 0
    /// Number of `clear()` calls.
    public private(set) var clearCount = 0
    public private(set) var cursor: Point?
    private var drawnSinceFlush = 0

    public init(size: Size) { screen = Buffer(size: size) }
    public convenience init(width: Int, height: Int) { self.init(size: Size(width: width, height: height)) }

    public var size: Size { screen.area.size }

    /// Changes the size, as a terminal resize would; the screen is blank afterwards.
    public func resize(to size: Size) { screen.resize(to: Rect(size: size)) }

    public func draw(_ runs: [CellRun], from buffer: Buffer) {
        for run in runs {
            for x in run.x..<(run.x + run.count) {
                let cell = buffer[x, run.y]
                if cell.isExtended {
                    screen.set(Character(buffer.symbol(x: x, y: run.y)), x: x, y: run.y, style: cell.style)
                } else {
                    screen[x, run.y] = cell
                    // As a terminal does, a narrow character over the left half of a wide one
                    // blanks its right half.
                    if x + 1 < screen.area.right, screen[x + 1, run.y].isContinuation,
                        !buffer[x + 1, run.y].isContinuation
                    {
                        screen[x + 1, run.y] = Cell(style: screen[x + 1, run.y].style)
                    }
                }
            }
            drawnSinceFlush += run.count
        }
    }

    public func flush() {
        flushCount += 1
        lastDrawnCellCount = drawnSinceFlush
        totalDrawnCellCount += drawnSinceFlush
        drawnSinceFlush = 0
    }

    public func clear() {
        clearCount += 1
        screen.reset()
    }

    public func setCursor(_ position: Point?) { cursor = position }

    /// The screen as text lines, full width.
    public var textLines: [String] { screen.textLines }
    /// The screen as text lines without trailing spaces.
    public var trimmedTextLines: [String] { screen.trimmedTextLines }
    /// The style of the cell at (x, y).
    public func style(x: Int, y: Int) -> Style { screen.style(x: x, y: y) }
}
