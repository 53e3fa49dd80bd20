import Benchmark
import CBenchCurses
import Support
import Synchronization
import TerminalUI

// A 200×60 frame drawn to ncurses writing to /dev/null. The alternative is immediate mode:
// the app redraws every cell each frame and calls refresh (ncurses then compares with what it
// sent last and writes the difference).
//
// Tether's side is TerminalUI's `Renderer` (paint into a buffer, diff against the previous
// frame, hand only the changed runs to the backend, one flush) drawing through the shipped
// `NcursesBackend`, which adopts the /dev/null screen the redraw uses.

let rows = 60
let columns = 200

let benchmarks: @Sendable () -> Void = {
    // ncurses is used on the main thread only (as TerminalUI does), and the renderer and its
    // backend are main-actor isolated. package-benchmark runs benchmarks on the cooperative pool,
    // so every frame benchmark hops to the main actor (not measured) and measures there.
    let screen = FrameScreen()
    for change in FrameChange.allCases {
        Benchmark("frame/200x60 \(change.rawValue)/ncurses redraw", configuration: budget(iterations: 5_000))
        {
            benchmark async in
            let iteration = benchmark.currentIteration
            let measurement = MainActorMeasurement(benchmark)
            let opened = await MainActor.run {
                guard let frames = screen.open() else { return false }
                let frame = change.frame(iteration, from: frames)
                measurement.start()
                frame.withUnsafeBufferPointer { lines in
                    for row in 0..<rows {
                        lines[row].withUnsafeBufferPointer {
                            CBenchCurses_put(Int32(row), $0.baseAddress, Int32(columns))
                        }
                    }
                }
                CBenchCurses_refresh()
                measurement.stop()
                return true
            }
            if !opened { benchmark.error("ncurses could not open an xterm-256color screen on /dev/null") }
        } teardown: {
            await screen.close()
        }
    }

    // "TerminalUI diff": the app paints the frame's 60 lines into the renderer's buffer
    // (`setString`), the renderer diffs and draws what changed. "TerminalUI render prepainted":
    // the renderer alone; the frame is a finished `Buffer` (painted before) that `render(_:)`
    // diffs and draws. The difference between the two is the cost of painting.
    for change in FrameChange.allCases {
        for prepainted in [false, true] {
            let name = prepainted ? "TerminalUI render prepainted" : "TerminalUI diff"
            Benchmark("frame/200x60 \(change.rawValue)/\(name)", configuration: budget(iterations: 5_000)) {
                benchmark async in
                let iteration = benchmark.currentIteration
                let measurement = MainActorMeasurement(benchmark)
                let changed = await MainActor.run { () -> Int? in
                    guard let (renderer, frames) = screen.openRenderer() else { return nil }
                    if prepainted {
                        let frame = change.frame(iteration, from: frames.buffers)
                        measurement.start()
                        renderer.render(frame)
                    } else {
                        let frame = change.frame(iteration, from: frames.text)
                        measurement.start()
                        renderer.draw { buffer in
                            for row in 0..<rows { buffer.setString(frame.strings[row], x: 0, y: row) }
                        }
                    }
                    measurement.stop()
                    return renderer.lastChangedCellCount
                }
                guard let changed else {
                    benchmark.error("ncurses could not open an xterm-256color screen on /dev/null")
                    return
                }
                blackHole(changed)
            } teardown: {
                await screen.close()
            }
        }
    }
}

/// The running benchmark, for the main actor to start and stop its measurement.
///
/// `Benchmark` is not `Sendable`; the frame benchmarks measure on the main actor while the
/// benchmark's task waits for it in `MainActor.run`. `lock` protects `benchmark`: this box
/// uses it only under the lock. What runs under it (`startMeasurement`, `stopMeasurement`)
/// reads clocks and counters and calls nothing back.
final class MainActorMeasurement: @unchecked Sendable {
    private let lock = Mutex(())
    private let benchmark: Benchmark

    init(_ benchmark: Benchmark) { self.benchmark = benchmark }

    func start() { lock.withLock { _ in benchmark.startMeasurement() } }
    func stop() { lock.withLock { _ in benchmark.stopMeasurement() } }
}

/// The frames as the Tether side uses them: the same text as Swift strings, and as buffers.
struct TerminalFrames {
    struct Text {
        let strings: [String]
    }
    let text: (a: Text, b: Text, aWithOneLineOfB: Text)
    let buffers: (a: Buffer, b: Buffer, aWithOneLineOfB: Buffer)

    init(_ frames: Frames) {
        func strings(_ lines: [[CChar]]) -> Text {
            Text(
                strings: lines.map { line in line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                })
        }
        text = (strings(frames.a), strings(frames.b), strings(frames.aWithOneLineOfB))
        buffers = (
            Buffer(lines: text.a.strings), Buffer(lines: text.b.strings),
            Buffer(lines: text.aWithOneLineOfB.strings)
        )
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
        pick(iteration, (frames.a, frames.b, frames.aWithOneLineOfB))
    }

    /// `frame(_:from:)` for any representation of the three frames.
    func frame<T>(_ iteration: Int, from frames: (a: T, b: T, aWithOneLineOfB: T)) -> T {
        pick(iteration, frames)
    }

    private func pick<T>(_ iteration: Int, _ frames: (a: T, b: T, aWithOneLineOfB: T)) -> T {
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

/// The one ncurses screen the frame benchmarks share, opened on first use, closed by each
/// benchmark's teardown. Main-actor isolated: ncurses is only called on the main thread.
@MainActor
final class FrameScreen {
    private var screen: OpaquePointer?
    private var frames: Frames?
    private var renderer: (Renderer, TerminalFrames)?

    nonisolated init() {}

    /// Opens the screen and a renderer drawing to it through `NcursesBackend`.
    func openRenderer() -> (Renderer, TerminalFrames)? {
        if let renderer { return renderer }
        guard let frames = open() else { return nil }
        let made = (
            Renderer(backend: NcursesBackend(adoptingCurrentScreen: Size(width: columns, height: rows))),
            TerminalFrames(frames)
        )
        renderer = made
        return made
    }

    /// Opens an xterm-256color screen of `rows`×`columns` writing to /dev/null.
    func open() -> Frames? {
        if let frames { return frames }
        guard let opened = CBenchCurses_open("xterm-256color", Int32(rows), Int32(columns)) else {
            return nil
        }
        screen = opened
        frames = Frames()
        return frames
    }

    func close() {
        if let screen { CBenchCurses_close(screen) }
        screen = nil
        frames = nil
        renderer = nil
    }
}
