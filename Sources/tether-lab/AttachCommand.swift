import ArgumentParser

/// `tether-lab attach PATH [--dump json]`: watch another process's ledger, served on the Unix
/// socket at PATH. `main.swift` runs it (``runAttach(_:)``).
struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Watch the Tether ledger another process serves, live, full screen.",
        discussion: """
            The process serves its ledger with LedgerServer.start(at: PATH, ledger: .shared) \
            (TetherInspector), or is a lab started with --serve PATH. Attach shows its counters \
            with a sparkline of the last minute, its leaks grouped by signature (Enter opens a \
            report), and its owners, leaked and ended ones first. Keys: ↑/↓ select, Enter or → \
            expand, ← collapse, / filter by type or file name, ? help, q quit; Ctrl-Z stops \
            attach and gives the terminal back to the shell, fg brings it back.

            When the process exits, a banner says so, the last state stays on screen, and attach \
            tries the path again every few seconds until it is served again or q.

            --dump json prints one snapshot — {process, pid, counters, owners, leaks} — and \
            exits; it needs no terminal.

            Exit codes: 0 done, 2 bad input (nothing at PATH, not a socket, permission denied, \
            not a ledger server, another protocol version, a malformed line) or not a terminal.
            """)

    @Argument(help: ArgumentHelp("The socket the process serves its ledger on.", valueName: "path"))
    var path: String

    @Option(help: ArgumentHelp("Print one snapshot and exit instead of watching.", valueName: "json"))
    var dump: AttachDumpFormat?

    func validate() throws {
        if path.isEmpty {
            throw ValidationError("an empty path: give the socket a process serves its ledger on")
        }
    }
}

/// `--dump json`: the one format attach prints.
enum AttachDumpFormat: String, ExpressibleByArgument, CaseIterable {
    case json
}
