import Dispatch
import Foundation
import Lab
import TerminalUI
import TetherInspector

/// Runs `tether-lab attach`: connects first — so that a bad path or a bad peer is one line on
/// stderr and exit code 2, with the terminal untouched — then prints one snapshot (`--dump
/// json`) or watches full screen until `q`.
///
/// Everything runs on the main queue, from callbacks: nothing awaits (see `AttachSession` for
/// why), so attach connected to a process that changes nothing does not wake at all.
func runAttach(_ command: AttachCommand) -> Never {
    if command.dump == nil,
        let message = Terminal.requireTTY(program: "tether-lab attach", headlessFlag: "--dump json")
    {
        Terminal.printError(message)
        exit(2)
    }
    let path = command.path
    let dump = command.dump
    MainRunLoop.park {
        if dump == .json { printFirstSnapshot(of: path) } else { watch(path) }
    }
}

/// Prints the first snapshot of the process at `path` as attach's JSON and exits 0; exits 2 if
/// it cannot connect, or the connection ends first. Once the server has said hello, it waits for
/// the snapshot as long as the server serves: a busy server sends it late, never not at all.
@MainActor
private func printFirstSnapshot(of path: String) {
    let connection = ConnectionBox()
    LedgerClient.connect(
        to: path, queue: .main,
        events: { event in
            MainActor.assumeIsolated {
                switch event {
                case .snapshot(let snapshot):
                    guard let client = connection.client else { return }
                    // Its place at the server goes to the next client while this one prints.
                    client.close()
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    guard let data = try? encoder.encode(AttachDump(hello: client.hello, snapshot: snapshot))
                    else {
                        fail(attach: "cannot encode the snapshot")
                    }
                    print(String(decoding: data, as: UTF8.self))
                    exit(0)
                case .leak:
                    break
                case .disconnected(let reason):
                    fail(attach: "\(reason) (before the first snapshot)")
                }
            }
        },
        completion: { result in
            MainActor.assumeIsolated {
                switch result {
                case .success(let client): connection.client = client
                case .failure(let error): fail(attach: error.description)
                }
            }
        })
}

/// The connection `printFirstSnapshot` made, for its events. Main-actor isolated.
@MainActor
private final class ConnectionBox: Sendable {
    var client: LedgerClient?
}

/// Watches full screen until `q` or a signal, then exits with the run's code.
@MainActor
private func watch(_ path: String) {
    let session = AttachSession(path: path)
    session.connect { result in
        let hello: InspectorHello
        switch result {
        case .success(let greeting): hello = greeting
        case .failure(let error): fail(attach: error.description)
        }
        let (backend, theme) = openTerminal(program: "tether-lab attach")
        let app = AttachApp(backend: backend, path: path, hello: hello, theme: theme)
        session.attach(app)
        app.application.onShutdown = { session.close() }
        // The run awaits only its own end: nothing resumes it from another thread meanwhile.
        Task { exit(await app.application.run()) }
    }
}

/// `tether-lab attach: <problem>` on stderr, and exit code 2.
private func fail(attach problem: String) -> Never {
    Terminal.printError("tether-lab attach: \(problem)")
    exit(2)
}

/// The terminal, full screen, in the theme the environment asks for (`NO_COLOR`: monochrome; ASCII
/// lines where the terminal is not UTF-8). When ncurses cannot start, or the terminal cannot show
/// a screen (`TERM=dumb`): one line, exit code 2, as for no terminal at all.
@MainActor
func openTerminal(program: String) -> (NcursesBackend, Theme) {
    var theme = Theme.fromEnvironment(Terminal.environment)
    let backend: NcursesBackend
    do {
        backend = try NcursesBackend(options: .init(colors: !theme.isMonochrome))
    } catch {
        Terminal.printError("\(program): \(error)")
        exit(2)
    }
    if !backend.isUnicode { theme = theme.ascii }
    return (backend, theme)
}
