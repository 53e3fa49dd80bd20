import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run as a job of a shell with job control: what Ctrl-Z needs to stop it.
extension PseudoTerminal {
    /// What ``job(executable:arguments:environment:size:)``'s shell writes when the program
    /// stops: then it waits for a line (``continueJob()``) before `fg`.
    public static let jobStopped = "[job stopped]"
    /// What that shell writes when the program has ended, before its exit status and `]`.
    public static let jobExited = "[job exited "

    /// Starts `executable` as a person's terminal runs it: a job of a shell with job control, on a
    /// new pseudo-terminal. The program has a process group of its own, in the foreground, whose
    /// parent is the shell, in the terminal's session — so Ctrl-Z stops it (the kernel does not
    /// stop a process group with no parent in its session, as a program started alone on a
    /// terminal is). The shell (`/bin/sh`, `set -m`) waits for it as shells do (`WUNTRACED`):
    /// when it stops, the shell writes ``jobStopped`` and reads a line, leaving the terminal as
    /// the program left it; then it continues the program in the foreground (`fg`, SIGCONT).
    /// When the program ends, the shell writes ``jobExited``, the status and `]`, and exits
    /// with it. ``pid`` is the shell's.
    public static func job(
        executable: String, arguments: [String] = [], environment: [String: String], size: Size
    ) throws -> PseudoTerminal {
        let script = """
            set -m
            "$@"; status=$?
            while [ "$status" -eq \(128 + SIGTSTP) ]; do
              echo '\(jobStopped)'; read -r line; fg; status=$?
            done
            echo "\(jobExited)$status]"; exit "$status"
            """
        return try PseudoTerminal(
            executable: "/bin/sh", arguments: ["-c", script, "sh", executable] + arguments,
            environment: environment, size: size)
    }

    /// Lets the shell of a ``job(executable:arguments:environment:size:)`` that reported
    /// ``jobStopped`` continue the program in the foreground.
    public func continueJob() { send("\n") }

    /// Sends `signal` to the terminal's foreground process group, as a terminal's own keys do
    /// (Ctrl-C, Ctrl-Z, where the program leaves them on): for a job, the program's group.
    public func signalForeground(_ signal: Int32) {
        if let group = foregroundGroup { kill(-group, signal) }
    }

    /// The terminal's foreground process group: for a job in the foreground, the program's, whose
    /// id is the program's pid. Nil when the terminal has none.
    public var foregroundGroup: pid_t? {
        let group = tcgetpgrp(masterFD)
        return group > 0 ? group : nil
    }
}
