import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the process's terminal, for `main` to decide how to run.
///
/// Stateless: every member reads the process state when called; safe from any thread.
public enum Terminal {
    /// True when both standard input and standard output are terminals.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Nil when the process can draw on a terminal; otherwise the one line to print on
    /// stderr before exiting with code 2. It names `headlessFlag`.
    ///
    ///     if let message = Terminal.requireTTY(program: "tether-lab") {
    ///         fputs(message + "\n", stderr); exit(2)
    ///     }
    public static func requireTTY(program: String, headlessFlag: String = "--headless") -> String? {
        if isInteractive { return nil }
        let which = isatty(STDIN_FILENO) == 1 ? "standard output" : "standard input"
        return "\(program): \(which) is not a terminal; run with \(headlessFlag) to use it without one"
    }

    /// Writes `line` and a newline to standard error (unbuffered).
    public static func printError(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes {
                write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if n <= 0 { break }
            offset += n
        }
    }

    /// The process environment as a dictionary.
    public static var environment: [String: String] { ProcessInfo.processInfo.environment }
}
