import TerminalUITesting
import TestSupport
import Testing

@testable import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `tui-demo`, next to the test bundle (SwiftPM builds it: the test target depends on it).
private func demoPath() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    var dir =
        n > 0
        ? String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    while let slash = dir.lastIndex(of: "/") {
        dir = String(dir[..<slash])
        if access(dir + "/tui-demo", X_OK) == 0 { return dir + "/tui-demo" }
    }
    return "tui-demo"
}

private let leaveAlternateScreen = "\u{1B}[?1049l"
private let showCursor = "\u{1B}[?25h"
private let normalCursorKeys = "\u{1B}[?1l"

private func startDemo(
    environment extra: [String: String] = [:], size: Size = Size(width: 60, height: 14),
    controllingTerminal: Bool = true
) throws -> PseudoTerminal {
    // The Swift runtime's backtracer waits 30 s for a key after a crash on a terminal; never here.
    var env = [
        "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
        "SWIFT_BACKTRACE": "interactive=no",
    ]
    env.merge(extra) { $1 }
    return try PseudoTerminal(
        executable: demoPath(), environment: env, size: size, controllingTerminal: controllingTerminal)
}

/// Resizes (which repaints every cell) and returns the "background: N" count of that repaint.
private func repaintedBackgroundCount(_ pty: PseudoTerminal, size: Size) -> Int? {
    let mark = pty.output.count
    pty.resize(to: size)
    var count: Int?
    _ = pty.readUntil { _ in
        let text = pty.outputText(since: mark)
        guard let r = text.range(of: "background: ") else { return false }
        let digits = text[r.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.endIndex < text.endIndex else { return false }
        count = Int(digits)
        return true
    }
    return count
}

#if os(Linux)
private let coreLimit = Int32(RLIMIT_CORE.rawValue)
#else
private let coreLimit = RLIMIT_CORE
#endif

/// Where the idle checks count wake-ups: Linux's /proc.
let hasProcFS = access("/proc/self/status", F_OK) == 0

/// Whether the crashing tests' children may dump core (they must not litter the package).
private func disableCoreDumps() {
    var limit = rlimit(rlim_cur: 0, rlim_max: 0)
    getrlimit(coreLimit, &limit)
    limit.rlim_cur = 0
    setrlimit(coreLimit, &limit)
}

/// SGR parameters that set a color (30–49, 90–107) in `output`.
private func colorParameters(in output: String) -> [Int] {
    let bytes = Array(output.utf8)
    var found: [Int] = []
    var i = 0
    while i + 1 < bytes.count {
        guard bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "[") else {
            i += 1
            continue
        }
        var j = i + 2
        while j < bytes.count, (bytes[j] >= 0x30 && bytes[j] <= 0x39) || bytes[j] == UInt8(ascii: ";") {
            j += 1
        }
        if j < bytes.count, bytes[j] == UInt8(ascii: "m") {
            let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
            for p in params.split(separator: ";").compactMap({ Int($0) })
            where (30...49).contains(p) || (90...107).contains(p) {
                found.append(p)
            }
        }
        i = j
    }
    return found
}

@Suite(.serialized) struct EndToEndTests {
    @Test func drawsPresentsAndQuitsRestoringTheTerminal() throws {
        let pty = try startDemo()
        #expect(pty.readUntil(outputContains: "Counter"))
        #expect(pty.readUntil(outputContains: "last sheet result: none"))
        #expect(!pty.isCooked)
        pty.send("+")
        pty.send(.enter)
        #expect(pty.readUntil(outputContains: "A sheet over count 1"))
        let mark = pty.output.count
        pty.send("q")
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.outputText(since: mark).contains(leaveAlternateScreen))
        #expect(pty.isCooked)
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalRestoresTheTerminalAndEndsByIt(signal: Int32) throws {
        let pty = try startDemo()
        #expect(pty.readUntil(outputContains: "last sheet result: none"))
        let mark = pty.output.count
        pty.signal(signal)
        #expect(pty.waitForExit() == .signaled(signal))
        #expect(pty.outputText(since: mark).contains(leaveAlternateScreen))
        #expect(pty.isCooked)
    }

    /// A terminal without cursor addressing (`TERM=dumb`) opens, but cannot show a screen: one
    /// line and exit code 1, as for a terminal ncurses does not know, and the terminal as it was.
    @Test(arguments: ["dumb", "nosuchterm"])
    func aTerminalThatCannotShowAScreenIsOneLine(term: String) throws {
        let pty = try startDemo(environment: ["TERM": term])
        #expect(pty.waitForExit() == .exited(1))
        #expect(pty.outputText.contains("tui-demo: ") && pty.outputText.contains("(TERM=\(term))"))
        #expect(!pty.outputText.contains("last sheet result"), "nothing drawn")
        #expect(pty.isCooked)
    }

    @Test func ctrlCQuits() throws {
        let pty = try startDemo()
        #expect(pty.readUntil(outputContains: "last sheet result: none"))
        pty.send(.ctrl("c"))
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.isCooked)
    }

    @Test func tooSmallSaysWhatItNeedsUntilItGrows() throws {
        let pty = try startDemo(size: Size(width: 20, height: 5))
        #expect(pty.readUntil(outputContains: "needs 30×8, have"))
        #expect(pty.readUntil(outputContains: "20×5"))
        let mark = pty.output.count
        pty.resize(to: Size(width: 60, height: 14))
        #expect(pty.readUntil(outputContains: "Counter", since: mark))
        pty.send("q")
        #expect(pty.waitForExit() == .exited(0))
    }

    @Test func noColorDrawsWithoutColorSequences() throws {
        let pty = try startDemo(environment: ["NO_COLOR": "1"])
        #expect(pty.readUntil(outputContains: "last sheet result: none"))
        pty.send("q")
        #expect(pty.waitForExit() == .exited(0))
        #expect(colorParameters(in: pty.outputText).isEmpty)
        let colored = try startDemo()
        #expect(colored.readUntil(outputContains: "last sheet result: none"))
        colored.send("q")
        #expect(colored.waitForExit() == .exited(0))
        #expect(!colorParameters(in: colored.outputText).isEmpty)
    }

    @Test func withoutATerminalItSaysSoAndExitsWithTwo() throws {
        // stdin and stdout of the shell are pipes, not the pty.
        let pty = try PseudoTerminal(
            executable: "/bin/sh", arguments: ["-c", "'\(demoPath())' </dev/null 2>&1 | cat; exit 0"],
            environment: ["PATH": "/usr/bin:/bin"], size: Size(width: 80, height: 5))
        let pty2 = try PseudoTerminal(
            executable: "/bin/sh",
            arguments: ["-c", "'\(demoPath())' </dev/null >/dev/null 2>&1; echo code=$?"],
            environment: ["PATH": "/usr/bin:/bin"], size: Size(width: 80, height: 5))
        #expect(pty.waitForExit() == .exited(0))
        let lines = pty.outputText.split(whereSeparator: \.isNewline)
        #expect(lines.count == 1)
        #expect(pty.outputText.contains("--headless"))
        #expect(pty2.readUntil(outputContains: "code=2"))
    }

    @Test func ncursesStaysOnTheMainThreadThroughKeysResizesAndBackgroundRedraws() throws {
        // Debug builds trap when ncurses is called off the main OS thread, so a clean exit
        // after all this proves it stayed there.
        let pty = try startDemo()
        #expect(pty.readUntil(outputContains: "background: 0"))
        pty.send("+")
        pty.send(.enter)
        #expect(pty.readUntil(outputContains: "A sheet over count 1"))
        pty.send(.escape)
        let sizes = [Size(width: 50, height: 12), Size(width: 60, height: 14)]
        var resizes = 0
        for n in 1...3 {
            // The count changes on a background task; only its requestRedraw() shows it.
            // Each resize (to the other size) repaints everything; resize until it shows n.
            pty.send("b")
            var shown: Int?
            for _ in 0..<200 where shown != n {
                shown = repaintedBackgroundCount(pty, size: sizes[resizes % 2])
                resizes += 1
                if shown == nil { break }
            }
            #expect(shown == n)
        }
        pty.send("q")
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.isCooked)
    }

    @Test func theThreadCheckCatchesNcursesOffTheMainThread() throws {
        // The negative control: parked in dispatchMain(), worker threads drain the main queue.
        disableCoreDumps()
        let pty = try startDemo(environment: ["TUI_DEMO_PARK": "dispatch", "SWIFT_BACKTRACE": "enable=no"])
        let end = pty.waitForExit()
        #expect(end == .signaled(SIGILL) || end == .signaled(SIGTRAP))
        #expect(pty.outputText.contains("called off the main OS thread"))
        #expect(pty.isCooked)
    }

    @Test(arguments: [
        (SIGSEGV, true), (SIGABRT, true), (SIGQUIT, true), (SIGSEGV, false), (SIGABRT, false),
        (SIGQUIT, false),
    ])
    func aCrashRestoresTheTerminalAndStillDiesByTheSignal(signal: Int32, backtrace: Bool) throws {
        disableCoreDumps()
        let pty = try startDemo(environment: [
            "SWIFT_BACKTRACE": backtrace ? "enable=yes,interactive=no" : "enable=no"
        ])
        #expect(pty.readUntil(outputContains: "last sheet result: none"))
        #expect(!pty.isCooked)
        let mark = pty.output.count
        pty.signal(signal)
        #expect(pty.waitForExit() == .signaled(signal))
        let after = pty.outputText(since: mark)
        #expect(after.contains(leaveAlternateScreen))
        #expect(after.contains(showCursor))
        #expect(after.contains(normalCursorKeys), "arrows send ESC [ A again, not ESC O A")
        #expect(pty.isCooked)
        if backtrace {
            // The runtime's crash report still runs, after the restore, on the normal screen.
            let restored = try #require(after.range(of: leaveAlternateScreen))
            let report = try #require(after.range(of: "Program crashed"))
            #expect(restored.upperBound <= report.lowerBound)
        }
    }
}

extension EndToEndTests {
    /// The tests that measure the wall clock: `make test` runs them after the logic tests, apart.
    @Suite(.tags(.timing), .serialized) struct Timing {
        @Test func escDismissesWithoutTheOneSecondDelay() throws {
            let pty = try startDemo()
            pty.send(.enter)
            #expect(pty.readUntil(outputContains: "A sheet over"))
            let mark = pty.output.count
            let start = ContinuousClock.now
            pty.send(.escape)
            // Dismissing repaints what the sheet covered; ncurses' default Esc delay is 1 s.
            #expect(pty.readUntil(outputContains: "😀", since: mark, timeout: .seconds(5)))
            #expect(ContinuousClock.now - start < .milliseconds(900))
            pty.send("q")
            #expect(pty.waitForExit() == .exited(0))
        }

        @Test(.enabled(if: hasProcFS, "counts wake-ups in /proc")) func anIdleAppDoesNotWakeUp() throws {
            let pty = try startDemo()
            #expect(pty.readUntil(outputContains: "last sheet result: none"))
            pty.send("+")
            #expect(pty.readUntil(outputContains: "1"))
            // Let the frame after "+" settle; this window only asserts the absence of wake-ups.
            let settle = ContinuousClock.now + .milliseconds(300)
            while ContinuousClock.now < settle { pty.pump(milliseconds: 50) }
            let before = try #require(pty.voluntaryContextSwitches)
            let window = ContinuousClock.now + .seconds(1)
            while ContinuousClock.now < window { pty.pump(milliseconds: 100) }
            let after = try #require(pty.voluntaryContextSwitches)
            #expect(after - before <= 1, "woke \(after - before) times while idle")
            pty.send("q")
            #expect(pty.waitForExit() == .exited(0))
        }

        @Test func aHangUpWithoutSIGHUPQuitsPromptlyWith129() throws {
            // Not the controlling terminal, so closing the master sends no SIGHUP: the input just
            // ends. Before the fix the read source fired forever and the process never exited.
            let pty = try startDemo(controllingTerminal: false)
            #expect(pty.readUntil(outputContains: "last sheet result: none"))
            let start = ContinuousClock.now
            pty.hangUp()
            #expect(pty.waitForExit(timeout: .seconds(10)) == .exited(129))
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }
}
