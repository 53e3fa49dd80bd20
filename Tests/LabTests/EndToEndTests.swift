import Foundation
import TerminalUI
import TerminalUITesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `tether-lab` on a pseudo-terminal (TerminalUITesting's `PseudoTerminal`): keys in, screen
/// out, the terminal restored. Every wait is a condition that waits until it holds, bounded by
/// a timeout — except the idle check, whose point is a window in which nothing happens.
@Suite(.serialized) struct EndToEndTests {
    static let leaveAlternateScreen = "\u{1B}[?1049l"

    func start(size: Size = Size(width: 120, height: 40), environment extra: [String: String] = [:]) throws
        -> PseudoTerminal
    {
        var env = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        if let home = ProcessInfo.processInfo.environment["HOME"] { env["HOME"] = home }
        for (k, v) in extra { env[k] = v }
        return try PseudoTerminal(executable: LabBinary.path, environment: env, size: size)
    }

    /// Starts the lab and waits until home is drawn and the terminal is in raw mode.
    func startHome(size: Size = Size(width: 120, height: 40), environment: [String: String] = [:]) throws
        -> PseudoTerminal
    {
        let pty = try start(size: size, environment: environment)
        #expect(pty.readUntil(outputContains: "Scenarios"))
        #expect(pty.readUntil(outputContains: "Inspector"))
        #expect(pty.readUntil { _ in !pty.isCooked }, "the lab reads keys in raw mode")
        return pty
    }

    /// Ctrl-Z, as in every full-screen program: the lab stops with the terminal given back, and
    /// the shell's `fg` brings it back redrawn, taking keys. A SIGTSTP from outside (`kill -TSTP`)
    /// takes the same path; then q ends it cleanly.
    @Test func ctrlZStopsTheLabAndFgBringsItBack() throws {
        let job = try LabTerminal.job()
        #expect(job.readUntil(screenShows: "Scenarios"))
        #expect(job.readUntil { _ in !job.isCooked }, "the lab reads keys in raw mode")
        job.send(.character("1"))
        #expect(job.readUntil(screenShows: "Orientation (bound)"))
        LabTerminal.expectStopAndFgRedraw(job, showing: "Orientation (bound)")
        let mark = job.output.count
        job.send(.character("r"))
        #expect(job.readUntil(outputContains: "landscapeLeft", since: mark), "keys reach the lab again")
        LabTerminal.expectStopAndFgRedraw(job, showing: "landscapeLeft") { $0.signalForeground(SIGTSTP) }
        job.send(.escape)
        job.send(.character("q"))
        #expect(job.readUntil(outputContains: PseudoTerminal.jobExited + "0]"))
        #expect(job.waitForExit() == .exited(0))
        #expect(job.isCooked)
    }

    @Test func homeIsDrawnAndKeysChangeTheScreen() throws {
        let pty = try startHome()
        #expect(pty.readUntil(outputContains: "Tether Lab"))
        #expect(pty.readUntil(outputContains: "Orientation"))
        var mark = pty.output.count
        pty.send(.character("1"))
        #expect(pty.readUntil(outputContains: "Orientation (bound)", since: mark))
        #expect(pty.readUntil(outputContains: "Portrait from publisher", since: mark))
        mark = pty.output.count
        pty.send(.character("r"))
        #expect(pty.readUntil(outputContains: "landscapeLeft", since: mark))
        mark = pty.output.count
        pty.send(.escape)
        #expect(pty.readUntil(outputContains: "dismissed", since: mark))
        mark = pty.output.count
        pty.send(.character("m"))
        #expect(pty.readUntil(outputContains: "leaky", since: mark))
        mark = pty.output.count
        pty.send(.character("1"))
        #expect(pty.readUntil(outputContains: "Orientation (leaky)", since: mark))
        mark = pty.output.count
        pty.send(.escape)
        #expect(
            pty.readUntil(outputContains: "OrientationViewModel.swift:", since: mark),
            "the leak is named after the grace period")
        mark = pty.output.count
        pty.send(.character("?"))
        #expect(pty.readUntil(outputContains: "Rotate the device", since: mark))
        pty.send(.escape)
        pty.send(.character("q"))
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.outputText.contains(Self.leaveAlternateScreen))
        #expect(pty.isCooked)
    }

    /// Home drawn, then Tab (the inspector takes the keys) and `/` (typing a filter).
    func startTypingAFilter() throws -> PseudoTerminal {
        let pty = try startHome()
        pty.send(.tab)
        #expect(pty.readUntil(screenShows: "keys here"))
        pty.send("/")
        #expect(pty.readUntil(screenShows: "filter: _"))
        return pty
    }

    /// A character whose bytes arrive in two reads (a slow link, a paste cut at a buffer's end)
    /// is typed whole, and so is what comes with its second half.
    @Test func aCharacterSplitBetweenReadsIsTyped() throws {
        let pty = try startTypingAFilter()
        pty.send([UInt8(ascii: "a"), 0xC3])  // "a", and the first byte of "é"
        #expect(pty.readUntil(screenShows: "filter: a_"))
        pty.send([0xA9, UInt8(ascii: "b")])  // the rest of "é", and "b"
        #expect(pty.readUntil(screenShows: "filter: aéb_"))
        pty.send("q")
        #expect(pty.readUntil(screenShows: "filter: aébq_"))
        pty.send(.ctrl("c"))
        #expect(pty.waitForExit() == .exited(0))
    }

    /// A byte that is no part of UTF-8 (a stray 0xFF, a Latin-1 é) is dropped alone.
    @Test func keysAfterABadByteAreTyped() throws {
        let pty = try startTypingAFilter()
        pty.send([0xFF, UInt8(ascii: "x"), 0xE9, UInt8(ascii: "y")])
        #expect(pty.readUntil(screenShows: "filter: xy_"))
        pty.send(.ctrl("c"))
        #expect(pty.waitForExit() == .exited(0))
    }

    @Test func quitRestoresTheTerminal() throws {
        let pty = try startHome()
        pty.send(.character("1"))
        #expect(pty.readUntil(outputContains: "Orientation (bound)"))
        let mark = pty.output.count
        pty.send(.character("q"))
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.outputText(since: mark).contains(Self.leaveAlternateScreen))
        #expect(pty.isCooked, "canonical mode with echo again")
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let pty = try startHome()
        let mark = pty.output.count
        pty.signal(SIGTERM)
        // TerminalUI re-raises the signal after restoring the terminal; where the signal is
        // blocked on the thread that re-raises it, the lab exits with 128 + 15 instead.
        let end = pty.waitForExit()
        #expect(end == .signaled(SIGTERM) || end == .exited(128 + SIGTERM))
        #expect(pty.outputText(since: mark).contains(Self.leaveAlternateScreen))
        #expect(pty.isCooked)
    }

    @Test func ctrlCQuitsAndRestoresTheTerminal() throws {
        let pty = try startHome()
        let mark = pty.output.count
        pty.send(.ctrl("c"))
        #expect(pty.waitForExit() != nil)
        #expect(pty.outputText(since: mark).contains(Self.leaveAlternateScreen))
        #expect(pty.isCooked)
    }

    /// The test terminal shows what the lab drew: home on a pseudo-terminal reads, row for row,
    /// as the headless lab's last frame of the same size.
    @Test func theTestTerminalShowsWhatTheLabDraws() throws {
        let pty = try startHome()
        let headless = try LabBinary.run(["--headless", "--size", "120x40", "--dump", "screen"])
        let expected = headless.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        #expect(
            pty.readUntil { _ in
                pty.screenLines == Array(expected.prefix(40))
                    + Array(repeating: "", count: max(0, 40 - expected.count))
            })
        #expect(pty.screenLines.first?.contains("Tether Lab") == true)
        pty.send(.character("q"))
        #expect(pty.waitForExit() == .exited(0))
    }

    /// A terminal the lab cannot draw on (no cursor addressing, or unknown to ncurses) is no
    /// terminal for it: one line and exit code 2, as `--help` says, and the terminal as it was.
    @Test(arguments: ["dumb", "nosuchterm"])
    func aTerminalThatCannotShowTheLabExitsWithCodeTwo(term: String) throws {
        let pty = try start(environment: ["TERM": term])
        #expect(pty.waitForExit() == .exited(2))
        #expect(pty.outputText.contains("tether-lab: ") && pty.outputText.contains("(TERM=\(term))"))
        #expect(pty.isCooked)
    }

    @Test func tooSmallSaysHowBigItMustBe() throws {
        let pty = try start(size: Size(width: 60, height: 15))
        #expect(pty.readUntil(outputContains: "needs 80×24, have 60×15"))
        let mark = pty.output.count
        pty.resize(to: Size(width: 100, height: 30))
        #expect(
            pty.readUntil(outputContains: "Scenarios", since: mark),
            "growing the terminal brings the lab back")
        pty.send(.character("q"))
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.isCooked)
    }

    @Test func noColorWritesNoColorEscapes() throws {
        let pty = try startHome(environment: ["NO_COLOR": "1"])
        pty.send(.character("m"))
        pty.send(.character("1"))
        #expect(pty.readUntil(outputContains: "Orientation (leaky)"))
        pty.send(.escape)
        #expect(
            pty.readUntil(outputContains: "OrientationViewModel.swift:"),
            "a leak, which color would paint red")
        pty.send(.character("q"))
        #expect(pty.waitForExit() == .exited(0))
        let colors = Self.colorParameters(in: pty.outputText)
        #expect(colors.isEmpty, "color SGR parameters: \(colors.prefix(5))")
        #expect(!Self.colorParameters(in: "a\u{1B}[1;31mb\u{1B}[48;5;4mc").isEmpty, "the check sees color")
    }

    /// The SGR sequences (`ESC [ … m`) in `text` that set a foreground or background color.
    static func colorParameters(in text: String) -> [String] {
        text.matches(of: /\x1B\[([0-9;:]*)m/).map { String($0.output.1) }.filter { params in
            params.split(whereSeparator: { $0 == ";" || $0 == ":" }).contains { p in
                guard let n = Int(p) else { return false }
                return (30...49).contains(n) || (90...107).contains(n)
            }
        }
    }
}

extension EndToEndTests {
    /// The tests that measure the wall clock: `make test` runs them after the logic tests, apart.
    @Suite(.tags(.timing), .serialized) struct Timing {
        let base = EndToEndTests()

        /// Reads each terminal's output for `duration` without sending anything: a window in
        /// which idleness is measured, the one wait here that is not on a condition.
        func idle(_ terminals: PseudoTerminal..., for duration: Duration) {
            let end = ContinuousClock.now + duration
            while ContinuousClock.now < end {
                for pty in terminals { pty.pump(milliseconds: 10) }
            }
        }

        /// Voluntary context switches of the process's main thread (where the lab runs), from /proc.
        static func mainThreadSwitches(_ pid: pid_t) -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8)
            else { return nil }
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return line.flatMap {
                Int($0.dropFirst("voluntary_ctxt_switches:".count).trimmingCharacters(in: .whitespaces))
            }
        }

        /// An idle lab blocks until a key, a signal or its own timer. At home, before anything
        /// ran on the global executor, the process makes no voluntary context switch at all over a
        /// quiet window. After a sheet was presented and dismissed, the lab's own (main) thread stays
        /// asleep; the process as a whole may wake about once a second, because once Swift's global
        /// executor has run a task, Linux libdispatch keeps a 1 Hz pool monitor on its manager thread
        /// (`_dispatch_workq_monitor_pools`) — not the lab's doing, and not something it can turn off.
        /// The windows are the one wait here that is not a condition: idleness is what they measure.
        @Test(
            .enabled(
                if: FileManager.default.fileExists(atPath: "/proc/self/status"), "counts wake-ups in /proc"))
        func idleLabDoesNotWakeUp() throws {
            let pty = try base.startHome()
            idle(pty, for: .milliseconds(300))  // let the first frame's writes finish
            var before = try #require(pty.voluntaryContextSwitches)
            idle(pty, for: .milliseconds(1500))
            var after = try #require(pty.voluntaryContextSwitches)
            #expect(after - before == 0, "\(after - before) wake-ups in 1.5 s at home")

            pty.send(.character("1"))
            #expect(pty.readUntil(outputContains: "Orientation (bound)"))
            pty.send(.escape)
            #expect(pty.readUntil(outputContains: "dismissed"))
            idle(pty, for: .milliseconds(600))  // past the 300 ms grace period: the leak check has run
            before = try #require(pty.voluntaryContextSwitches)
            let mainBefore = try #require(Self.mainThreadSwitches(pty.pid))
            idle(pty, for: .seconds(2))
            after = try #require(pty.voluntaryContextSwitches)
            let mainAfter = try #require(Self.mainThreadSwitches(pty.pid))
            #expect(
                mainAfter - mainBefore == 0, "the lab's thread woke \(mainAfter - mainBefore) times in 2 s")
            #expect(after - before <= 3, "\(after - before) wake-ups in 2 s after a sheet")
            pty.send(.character("q"))
            #expect(pty.waitForExit() == .exited(0))
        }

        /// A lab stopped by Ctrl-Z and brought back by `fg` is as idle as before: taking the
        /// terminal again leaves no timer or source behind that wakes it.
        @Test(
            .enabled(
                if: FileManager.default.fileExists(atPath: "/proc/self/status"), "counts wake-ups in /proc"))
        func aLabBroughtBackByFgDoesNotWakeUp() throws {
            let job = try LabTerminal.job()
            #expect(job.readUntil(screenShows: "Scenarios"))
            let lab = try #require(job.foregroundGroup, "the lab's process group is in the foreground")
            LabTerminal.expectStopAndFgRedraw(job, showing: "Scenarios")
            idle(job, for: .milliseconds(300))  // let the redraw's writes finish
            let before = try #require(PseudoTerminal.voluntaryContextSwitches(of: lab))
            idle(job, for: .milliseconds(1500))
            let after = try #require(PseudoTerminal.voluntaryContextSwitches(of: lab))
            #expect(after - before == 0, "\(after - before) wake-ups in 1.5 s after fg")
            job.send(.character("q"))
            #expect(job.readUntil(outputContains: PseudoTerminal.jobExited + "0]"))
            #expect(job.waitForExit() == .exited(0))
        }

        /// Serving costs no wake-up, and neither does watching: a lab serving at home and attach
        /// connected to it sleep on every thread while nothing changes. After a leaky sheet — whose
        /// leak reaches attach — attach still sleeps on every thread (it never runs on Swift's global
        /// executor: its connection runs on the main actor); the lab's own thread sleeps, and the
        /// lab as a whole may wake about once a second for libdispatch's pool monitor (see above:
        /// the scenarios' tasks and the ledger's verdict timer run on the global queues).
        @Test(
            .enabled(
                if: FileManager.default.fileExists(atPath: "/proc/self/status"), "counts wake-ups in /proc"))
        func anIdleServingLabAndItsAttachDoNotWakeUp() throws {
            let directory = try SocketDirectory()
            let path = directory("lab.sock")
            let lab = try LabTerminal.serving(at: path)
            let attach = try LabTerminal.attach(path)
            idle(lab, attach, for: .milliseconds(300))
            var labBefore = try #require(lab.voluntaryContextSwitches)
            var attachBefore = try #require(attach.voluntaryContextSwitches)
            idle(lab, attach, for: .milliseconds(1500))
            var labAfter = try #require(lab.voluntaryContextSwitches)
            var attachAfter = try #require(attach.voluntaryContextSwitches)
            #expect(
                labAfter - labBefore == 0,
                "the serving lab woke \(labAfter - labBefore) times in 1.5 s at home")
            #expect(
                attachAfter - attachBefore == 0, "attach woke \(attachAfter - attachBefore) times in 1.5 s")

            lab.send(.character("m"))
            lab.send(.character("1"))
            #expect(lab.readUntil(screenShows: "Orientation (leaky)"))
            lab.send(.escape)
            #expect(attach.readUntil(screenShows: "OrientationViewModel#1 LEAKED"))
            idle(lab, attach, for: .milliseconds(600))
            labBefore = try #require(lab.voluntaryContextSwitches)
            attachBefore = try #require(attach.voluntaryContextSwitches)
            let mainBefore = try #require(Self.mainThreadSwitches(lab.pid))
            idle(lab, attach, for: .seconds(2))
            labAfter = try #require(lab.voluntaryContextSwitches)
            attachAfter = try #require(attach.voluntaryContextSwitches)
            let mainAfter = try #require(Self.mainThreadSwitches(lab.pid))
            #expect(attachAfter - attachBefore == 0, "attach woke \(attachAfter - attachBefore) times in 2 s")
            #expect(
                mainAfter - mainBefore == 0, "the lab's thread woke \(mainAfter - mainBefore) times in 2 s")
            #expect(labAfter - labBefore <= 3, "\(labAfter - labBefore) wake-ups of the serving lab in 2 s")
            lab.send(.character("q"))
            attach.send(.character("q"))
            #expect(lab.waitForExit() == .exited(0))
            #expect(attach.waitForExit() == .exited(0))
        }
    }
}
