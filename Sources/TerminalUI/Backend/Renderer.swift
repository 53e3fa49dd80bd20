#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws frames: paints a buffer, diffs it against the previous frame and hands only the
/// changed cells to the backend, with one `flush()` per frame.
///
/// Two buffers are kept and swapped, so a frame allocates nothing once sizes are stable;
/// unchanged rows are skipped with one `memcmp` each. Main-actor isolated.
@MainActor
public final class Renderer {
    public let backend: any Backend
    private var previous: Buffer
    private var current: Buffer
    private var hasPrevious = false
    private var runs: [CellRun] = []
    /// Frames drawn.
    public private(set) var frameCount = 0
    /// Cells handed to the backend by the last frame.
    public private(set) var lastChangedCellCount = 0

    public init(backend: any Backend) {
        self.backend = backend
        previous = Buffer(size: backend.size)
        current = Buffer(size: backend.size)
    }

    /// The last frame drawn.
    public var lastFrame: Buffer { previous }

    /// Forgets the previous frame: the next one repaints every cell (after a resize, or
    /// when the screen may have been disturbed).
    public func invalidate() {
        hasPrevious = false
        backend.clear()
    }

    /// Paints a frame with `paint` into a blank buffer the size of the backend and presents it.
    public func draw(_ paint: (inout Buffer) -> Void) {
        let area = Rect(size: backend.size)
        if current.area != area {
            current.resize(to: area)
        } else {
            current.reset()
        }
        paint(&current)
        present(current)
        swap(&previous, &current)
    }

    /// Presents a finished buffer: only cells that differ from the previous frame are sent.
    public func render(_ buffer: Buffer) {
        present(buffer)
        previous = buffer
    }

    private func present(_ buffer: Buffer) {
        if buffer.area != previous.area {
            if hasPrevious { invalidate() }
            hasPrevious = false
        }
        runs.removeAll(keepingCapacity: true)
        if hasPrevious {
            Renderer.diff(previous, buffer, into: &runs)
        } else {
            Renderer.fullRuns(buffer, into: &runs)
        }
        var changed = 0
        for r in runs { changed += r.count }
        lastChangedCellCount = changed
        if !runs.isEmpty { backend.draw(runs, from: buffer) }
        backend.flush()
        hasPrevious = true
        frameCount += 1
    }

    /// Appends one run per row covering all of `buffer`.
    public static func fullRuns(_ buffer: Buffer, into runs: inout [CellRun]) {
        guard buffer.width > 0 else { return }
        for y in buffer.area.top..<buffer.area.bottom {
            runs.append(CellRun(y: y, x: buffer.area.x, count: buffer.width))
        }
    }

    /// Appends the runs of cells where `new` differs from `old` (same area). A run that
    /// would start on the right half of a wide character starts one cell earlier.
    public static func diff(_ old: Buffer, _ new: Buffer, into runs: inout [CellRun]) {
        precondition(old.area == new.area, "diff needs buffers of the same area")
        let width = new.width
        guard width > 0 else { return }
        let sameTables = old.graphemes == new.graphemes
        let rowBytes = width * MemoryLayout<Cell>.stride
        old.cells.withUnsafeBufferPointer { o in
            new.cells.withUnsafeBufferPointer { n in
                /// Whether the cells at `i` show the same thing: same code and style (and, when
                /// the grapheme tables differ, same grapheme), or two graphemes that read the same.
                @inline(__always) func same(_ i: Int) -> Bool {
                    let a = o[i]
                    let b = n[i]
                    guard a.styleWord == b.styleWord else { return false }
                    if a.code == b.code {
                        return sameTables || !a.isExtended || old.symbol(of: a) == new.symbol(of: b)
                    }
                    return a.isExtended && b.isExtended && old.symbol(of: a) == new.symbol(of: b)
                }
                let ob = UnsafeRawPointer(o.baseAddress!)
                let nb = UnsafeRawPointer(n.baseAddress!)
                for row in 0..<new.height {
                    let start = row &* width
                    let end = start &+ width
                    if sameTables, memcmp(ob + start &* 8, nb + start &* 8, rowBytes) == 0 { continue }
                    var i = start
                    while i < end {
                        if same(i) {
                            i &+= 1
                            continue
                        }
                        var runStart = i
                        if n[i].isContinuation, i > start { runStart &-= 1 }
                        i &+= 1
                        while i < end, !same(i) { i &+= 1 }
                        let y = new.area.y + row
                        let x = new.area.x + (runStart - start)
                        if let last = runs.last, last.y == y, last.x + last.count >= x {
                            runs[runs.count - 1].count = new.area.x + (i - start) - last.x
                        } else {
                            runs.append(CellRun(y: y, x: x, count: i - runStart))
                        }
                    }
                }
            }
        }
    }
}
