import Foundation
import Glibc
import Testing

/// The real `tether-lab` on a pseudo-terminal: keys in, screen out, the terminal restored.
/// Every wait is an assertion that waits until it holds, bounded by a timeout.
@Suite(.serialized) struct EndToEndTests {
    static let leaveAlternateScreen = "\u{1B}[?1049l"

    func start(width: Int = 120, height: Int = 40, environment extra: [String: String] = [:]) throws
        -> PseudoTerminal
    {
        var env = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        if let home = ProcessInfo.processInfo.environment["HOME"] { env["HOME"] = home }
        for (k, v) in extra { env[k] = v }
        return try PseudoTerminal(
            LabBinary.path, arguments: ["--probe"], environment: env, width: width, height: height)
    }

    @Test func homeIsDrawnAndKeysChangeTheScreen() throws {
        let pty = try start()
        #expect(pty.waitFor("Tether Lab"))
        #expect(pty.waitFor("Scenarios"))
        #expect(pty.waitFor("Inspector"))
        var mark = pty.output.count
        pty.send("1")
        #expect(pty.waitFor("Probe (bound)", since: mark))
        #expect(pty.waitFor("presented probe (bound)", since: mark))
        mark = pty.output.count
        pty.send("r")
        #expect(pty.waitFor("landscapeLeft", since: mark))
        mark = pty.output.count
        pty.send("\u{1B}")
        #expect(pty.waitFor("dismissed probe", since: mark))
        mark = pty.output.count
        pty.send("m")
        #expect(pty.waitFor("leaky", since: mark))
        mark = pty.output.count
        pty.send("?")
        #expect(pty.waitFor("Rotate the device", since: mark))
        pty.send("q")
        #expect(pty.waitForExit() == .exited(0))
        #expect(pty.text.hasSuffix(Self.leaveAlternateScreen) || pty.text.contains(Self.leaveAlternateScreen))
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let pty = try start()
        #expect(pty.waitFor("Scenarios"))
        let mark = pty.output.count
        kill(pty.pid, SIGTERM)
        // TerminalUI re-raises the signal after restoring the terminal; where the signal is
        // blocked on the thread that re-raises it, the lab exits with 128 + 15 instead.
        let end = pty.waitForExit()
        #expect(end == .signaled(SIGTERM) || end == .exited(128 + SIGTERM))
        #expect(pty.text(since: mark).contains(Self.leaveAlternateScreen))
    }

    @Test func ctrlCQuitsAndRestoresTheTerminal() throws {
        let pty = try start()
        #expect(pty.waitFor("Scenarios"))
        let mark = pty.output.count
        pty.send("\u{03}")
        #expect(pty.waitForExit() != nil)
        #expect(pty.text(since: mark).contains(Self.leaveAlternateScreen))
    }

    @Test func tooSmallSaysHowBigItMustBe() throws {
        let pty = try start(width: 60, height: 15)
        #expect(pty.waitFor("needs 80×24, have 60×15"))
        pty.send("q")
        #expect(pty.waitForExit() == .exited(0))
    }
}
