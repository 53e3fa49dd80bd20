import Benchmark
import CBenchCurses
import Support

// A 200×60 frame drawn to ncurses writing to /dev/null. The alternative is immediate mode:
// the app redraws every cell each frame and calls refresh (ncurses then compares with what it
// sent last and writes the difference).

let rows = 60
let columns = 200

let benchmarks: @Sendable () -> Void = {
    let screen = ScreenBox()
    for change in FrameChange.allCases {
        Benchmark("frame/200x60 \(change.rawValue)/ncurses redraw", configuration: budget(iterations: 5_000)) {
            benchmark in
            guard let frames = screen.open() else {
                benchmark.error("ncurses could not open an xterm-256color screen on /dev/null")
                return
            }
            let frame = change.frame(benchmark.currentIteration, from: frames)
            benchmark.startMeasurement()
            frame.withUnsafeBufferPointer { lines in
                for row in 0..<rows {
                    lines[row].withUnsafeBufferPointer { CBenchCurses_put(Int32(row), $0.baseAddress, Int32(columns)) }
                }
            }
            CBenchCurses_refresh()
            benchmark.stopMeasurement()
        } teardown: {
            screen.close()
        }
    }
}

/// What differs between one frame and the next.
enum FrameChange: String, CaseIterable {
    case allChanged = "all changed"
    case oneLineChanged = "one line changed"
    case nothingChanged = "nothing changed"

    /// The frame to draw at `iteration`: frames alternate so that exactly what `self` says differs
    /// from the frame drawn before.
    func frame(_ iteration: Int, from frames: Frames) -> [[CChar]] {
        switch self {
        case .allChanged: iteration.isMultiple(of: 2) ? frames.a : frames.b
        case .oneLineChanged: iteration.isMultiple(of: 2) ? frames.a : frames.aWithOneLineOfB
        case .nothingChanged: frames.a
        }
    }
}

/// Two frames that differ in every cell, and one that differs from the first in one line.
struct Frames {
    let a: [[CChar]]
    let b: [[CChar]]
    let aWithOneLineOfB: [[CChar]]

    init() {
        func line(_ row: Int, _ shift: Int) -> [CChar] {
            (0..<columns).map { CChar(UInt8(ascii: "a") + UInt8((row + $0 + shift) % 26)) } + [0]
        }
        a = (0..<rows).map { line($0, 0) }
        b = (0..<rows).map { line($0, 1) }
        var mixed = a
        mixed[rows / 2] = b[rows / 2]
        aWithOneLineOfB = mixed
    }
}

/// The one ncurses screen the frame benchmarks share, opened on first use. Used from the
/// benchmark thread only.
final class ScreenBox {
    private var screen: OpaquePointer?
    private var frames: Frames?

    func open() -> Frames? {
        if let frames { return frames }
        guard let opened = CBenchCurses_open("xterm-256color", Int32(rows), Int32(columns)) else { return nil }
        screen = opened
        frames = Frames()
        return frames
    }

    func close() {
        if let screen { CBenchCurses_close(screen) }
        screen = nil
        frames = nil
    }
}
