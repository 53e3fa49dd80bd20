import ArgumentParser
import Lab

/// `tether-lab`'s options. Parsed with swift-argument-parser; `main.swift` maps every parse
/// error to one line on stderr and exit code 2.
struct LabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tether-lab",
        abstract: "Tether Lab: watch subscriptions, tasks and observers live and die with their screens.",
        discussion: """
            Without options the lab opens on the terminal (standard input and output must be a \
            terminal). Keys: 1-6 or ↑/↓ and Enter present a scenario, r rotates, m switches \
            bound/leaky for the next sheet, i toggles the inspector, Esc dismisses, ? opens help, \
            q quits.

            Headless runs drive the same lab on an in-memory screen with lab time on a manual \
            clock. Keys are names separated by spaces: a character (1, r, q, ?), Enter, Esc, Tab, \
            Space, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, F1-F12, Ctrl-X; \
            wait:MS lets MS milliseconds of lab time pass (leak verdicts come 300 ms after a \
            dismissal). Scripts hold the same names on any number of lines, with # comments; the \
            bundled ones (bound-orientation, leaky-orientation, tour) can be named without a path.

            When the keys run out the state is printed as it is. q tears every screen down \
            first, then lets the grace period pass, so after q in bound mode every counter is 0. \
            --dump json prints {orientation, stack, mode, counters, leaks} pretty-printed with \
            sorted keys; --dump screen prints the last frame as text.

            Exit codes: 0 done, 1 soak failed, 2 bad input or not a terminal.
            """,
        version: LabResources.version)

    @Flag(help: "Run without a terminal, on an in-memory screen.")
    var headless = false

    @Option(help: ArgumentHelp("Screen size for --headless.", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("Keys to press, e.g. \"1 r r Esc wait:400\".", valueName: "keys"))
    var keys: String?

    @Option(help: ArgumentHelp("A file of keys (or a bundled script's name).", valueName: "file"))
    var script: String?

    @Option(
        help: ArgumentHelp(
            "What to print at the end of a headless run: json or screen.", valueName: "json|screen"))
    var dump: String?

    @Option(
        help: ArgumentHelp("Present, rotate and dismiss every scenario N times in each mode.", valueName: "N")
    )
    var soak: Int?

    @Option(
        name: .customLong("soak-modes"),
        help: ArgumentHelp(
            "Which modes the soak runs: bound, leaky or both (default). Under valgrind, run bound: "
                + "leaky mode's cycles are leaks on purpose.", valueName: "bound|leaky|both"))
    var soakModes: String?

    @Flag(help: "Skip the soak's RSS growth check (meaningless under valgrind).")
    var noRSSCheck = false
}
