import ArgumentParser
import Lab
import TerminalUI

/// `tether-lab`'s options. Parsed with swift-argument-parser, which reports bad values and bad
/// combinations itself; `main.swift` prints the first line of its error on stderr, with exit
/// code 2.
struct LabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tether-lab",
        abstract: "Tether Lab: watch subscriptions, tasks and observers live and die with their screens.",
        discussion: """
            Without options the lab opens on the terminal (standard input and output must be a \
            terminal). Keys: 1-8 or ↑/↓ and Enter present a scenario, r rotates, m switches \
            bound/leaky for the next sheet, i toggles the inspector, Tab gives it the keys (↑/↓ \
            select a leak, Enter opens its report), Esc dismisses, ? opens help, q quits; Ctrl-Z \
            stops the lab and gives the terminal back to the shell, fg brings it back.

            Headless runs drive the same lab on an in-memory screen with lab time on a manual \
            clock. Keys are names separated by spaces: a character (1, r, q, ?), Enter, Esc, Tab, \
            Space, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, \
            F\(Key.functionKeys.lowerBound)-F\(Key.functionKeys.upperBound), Ctrl-X; \
            wait:MS lets MS milliseconds of lab time pass (leak verdicts come 300 ms after a \
            dismissal). Scripts hold the same names on any number of lines, with # comments; the \
            bundled ones (bound-orientation, leaky-orientation, tour) can be named without a path.

            When the keys run out the state is printed as it is. q tears every screen down \
            first, then lets the grace period pass, so after q in bound mode every counter is 0. \
            --dump json prints {orientation, stack, mode, counters, leaks, growth} pretty-printed with \
            sorted keys; --dump screen prints the last frame as text.

            --serve PATH serves the lab's ledger on a Unix socket (mode 0600), so that \
            `tether-lab attach PATH` shows it from another terminal. Headless, the lab keeps \
            serving its final state after printing it, until its standard input ends or it is \
            interrupted.

            Exit codes: 0 done, 1 soak failed, 2 bad input or not a terminal.
            """,
        version: LabResources.version,
        subcommands: [AttachCommand.self])

    @Flag(help: "Run without a terminal, on an in-memory screen.")
    var headless = false

    // `.unconditional`: a number that starts with a dash (`-5x10`, `-1`) is the option's value,
    // which its own check rejects clearly, not "a missing value".
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Screen size for --headless (default 120x40).", valueName: "WxH"))
    var size: ScreenSize?

    @Option(help: ArgumentHelp("Keys to press, e.g. \"1 r r Esc wait:400\".", valueName: "keys"))
    var keys: String?

    @Option(help: ArgumentHelp("A file of keys (or a bundled script's name).", valueName: "file"))
    var script: String?

    @Option(
        help: ArgumentHelp(
            "What to print at the end of a headless run (default json).", valueName: "json|screen"))
    var dump: DumpFormat?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Present, rotate and dismiss every scenario N times in each mode.", valueName: "N")
    )
    var soak: Int?

    @Option(
        name: .customLong("soak-modes"),
        help: ArgumentHelp(
            "Which modes the soak runs (default both); under valgrind, bound: leaky cycles leak on purpose.",
            valueName: "bound|leaky|both"))
    var soakModes: SoakModes?

    @Flag(help: "Skip the soak's RSS growth check (meaningless under valgrind).")
    var noRSSCheck = false

    @Option(
        help: ArgumentHelp(
            "Serve the lab's ledger on a Unix socket at PATH, for `tether-lab attach PATH`.",
            valueName: "path"))
    var serve: String?

    func validate() throws {
        if let soak {
            guard soak > 0 else {
                throw ValidationError("bad --soak count \(soak) (expected a positive number)")
            }
            guard size == nil, keys == nil, script == nil, dump == nil, serve == nil else {
                throw ValidationError(
                    "--soak runs by itself; it takes no --size, --keys, --script, --dump or --serve")
            }
        } else if soakModes != nil || noRSSCheck {
            throw ValidationError("--soak-modes and --no-rss-check go with --soak")
        }
        if !headless, soak == nil, size != nil || keys != nil || script != nil || dump != nil {
            throw ValidationError("--size, --keys, --script and --dump need --headless")
        }
        if keys != nil, script != nil { throw ValidationError("give --keys or --script, not both") }
        if serve?.isEmpty == true {
            throw ValidationError("--serve: an empty path: give the socket to serve the ledger on")
        }
    }
}

/// `--size WxH`: the headless screen, each side from 1 to 1000 cells.
struct ScreenSize: ExpressibleByArgument {
    let size: Size

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...1000).contains(w),
            (1...1000).contains(h)
        else { return nil }
        size = Size(width: w, height: h)
    }
}

/// `--dump json|screen`: what a headless run prints at its end.
enum DumpFormat: String, ExpressibleByArgument, CaseIterable {
    case json, screen
}

/// `--soak-modes bound|leaky|both`.
enum SoakModes: String, ExpressibleByArgument, CaseIterable {
    case bound, leaky, both

    var modes: [Mode] {
        switch self {
        case .bound: [.bound]
        case .leaky: [.leaky]
        case .both: [.bound, .leaky]
        }
    }
}
