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

    /// Writes `line`, its control characters shown (``visible(_:)``), and a newline to standard
    /// error (unbuffered).
    public static func printError(_ line: String) {
        var bytes = Array((visible(line) + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes {
                write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if n <= 0 { break }
            offset += n
        }
    }

    /// `line` with its control characters shown, not obeyed: an error quoting what the user typed
    /// (an escape sequence in a script) must not move the cursor or clear the screen. C0 controls
    /// and DEL read in caret notation (`^[` for Esc), C1 controls as `\u{9B}`.
    static func visible(_ line: String) -> String {
        var shown = ""
        for scalar in line.unicodeScalars {
            switch scalar.value {
            case 0..<0x20: shown += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: shown += "^?"
            case 0x80..<0xA0: shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// The process environment as a dictionary.
    public static var environment: [String: String] { ProcessInfo.processInfo.environment }
}
