import CBenchCurses
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

// Replays the Frames suite's 200×60 frames for callgrind.
//
//     frame paint        paint (60 × setString of 200 characters) and diff, all cells changed,
//                        with a backend that draws nothing: TerminalUI's own work
//     frame diff         the same without the painting (`render` of finished buffers)
//     frame redraw-K     the alternative: immediate-mode redraw of every line, then `wrefresh`
//     frame tether-K     the Frames suite's "TerminalUI diff": paint, diff, draw through
//                        `NcursesBackend` on the same /dev/null screen
//     frame prepainted-K "TerminalUI render prepainted": `render` of finished buffers
//
// K is `all`, `line` or `none`: which cells differ from the frame before (all, one line, none).

/// Runs `count` frames of `mode` and prints something that depends on them.
@MainActor func profileFrames(mode: String, count: Int) {
    let rows = 60
    let columns = 200
    func line(_ row: Int, _ shift: Int) -> String {
        String(
            (0..<columns).map {
                Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8((row + $0 + shift) % 26)))
            })
    }
    let a = (0..<rows).map { line($0, 0) }
    let b = (0..<rows).map { line($0, 1) }
    var aWithOneLineOfB = a
    aWithOneLineOfB[rows / 2] = b[rows / 2]

    let parts = mode.split(separator: "-", maxSplits: 1).map(String.init)
    let kind = parts[0]
    let change = parts.count > 1 ? parts[1] : "all"
    /// The text of frame `i`: frames alternate so that `change` says what differs from the one before.
    func frame(_ i: Int) -> [String] {
        switch change {
        case "line": i.isMultiple(of: 2) ? a : aWithOneLineOfB
        case "none": a
        default: i.isMultiple(of: 2) ? a : b
        }
    }

    /// Draws `count` frames through `renderer`: painted line by line (`painting`), as an app
    /// does, or as finished buffers the renderer only diffs.
    func replay(_ renderer: Renderer, painting: Bool) {
        let buffers = [Buffer(lines: frame(0)), Buffer(lines: frame(1))]
        for i in 0..<count {
            if painting {
                let text = frame(i)
                renderer.draw { buffer in
                    for row in 0..<rows { buffer.setString(text[row], x: 0, y: row) }
                }
            } else {
                renderer.render(buffers[i % 2])
            }
        }
        print(renderer.lastChangedCellCount)
    }

    switch kind {
    case "paint", "diff":
        replay(
            Renderer(backend: NullBackend(size: Size(width: columns, height: rows))),
            painting: kind == "paint")
    case "redraw", "tether", "prepainted":
        guard let screen = CBenchCurses_open("xterm-256color", Int32(rows), Int32(columns)) else {
            print("ncurses could not open an xterm-256color screen on /dev/null")
            exit(1)
        }
        defer { CBenchCurses_close(screen) }
        if kind == "redraw" {
            let bytes = [frame(0), frame(1)].map { lines in lines.map { Array($0.utf8CString) } }
            for i in 0..<count {
                for row in 0..<rows {
                    bytes[i % 2][row].withUnsafeBufferPointer {
                        CBenchCurses_put(Int32(row), $0.baseAddress, Int32(columns))
                    }
                }
                CBenchCurses_refresh()
            }
            print(count)
            return
        }
        replay(
            Renderer(backend: NcursesBackend(adoptingCurrentScreen: Size(width: columns, height: rows))),
            painting: kind == "tether")
    default:
        print("unknown frame mode \(mode)")
        exit(2)
    }
}

/// A backend that draws nothing: what remains is TerminalUI's own work.
@MainActor final class NullBackend: Backend {
    let size: Size
    init(size: Size) { self.size = size }
    func draw(_ runs: [CellRun], from buffer: Buffer) {}
    func flush() {}
    func clear() {}
    func setCursor(_ position: Point?) {}
}
