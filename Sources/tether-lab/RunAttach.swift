import Foundation
import Lab
import TerminalUI
import TetherInspector

/// Runs `tether-lab attach`: connects first — so that a bad path or a bad peer is one line on
/// stderr and exit code 2, with the terminal untouched — then prints one snapshot (`--dump
/// json`) or watches full screen until `q`.
func runAttach(_ command: AttachCommand) -> Never {
    if command.dump == nil,
        let message = Terminal.requireTTY(program: "tether-lab attach", headlessFlag: "--dump json")
    {
        Terminal.printError(message)
        exit(2)
    }
    let path = command.path
    let dump = command.dump
    runOnMainActor {
        let client: LedgerClient
        do {
            client = try await LedgerClient.connect(to: path)
        } catch {
            Terminal.printError("tether-lab attach: \(error)")
            return 2
        }
        if dump == .json { return await printFirstSnapshot(of: client) }
        return await watch(client, path: path)
    }
}

/// Prints the first snapshot `client` receives as attach's JSON; 2 if the connection ends first.
@MainActor
private func printFirstSnapshot(of client: LedgerClient) async -> Int32 {
    for await event in client.events {
        switch event {
        case .snapshot(let snapshot):
            client.close()
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(AttachDump(hello: client.hello, snapshot: snapshot)) else {
                Terminal.printError("tether-lab attach: cannot encode the snapshot")
                return 2
            }
            print(String(decoding: data, as: UTF8.self))
            return 0
        case .leak:
            continue
        case .disconnected(let reason):
            Terminal.printError("tether-lab attach: \(reason) (before the first snapshot)")
            return 2
        }
    }
    Terminal.printError("tether-lab attach: the connection ended before the first snapshot")
    return 2
}

/// Watches full screen until `q` or a signal; returns the run's exit code.
@MainActor
private func watch(_ client: LedgerClient, path: String) async -> Int32 {
    var theme = Theme.fromEnvironment(Terminal.environment)
    let backend: NcursesBackend
    do {
        backend = try NcursesBackend(options: .init(colors: !theme.isMonochrome))
    } catch {
        client.close()
        Terminal.printError("tether-lab attach: \(error)")
        return 1
    }
    if !backend.isUnicode { theme = theme.ascii }
    let app = AttachApp(backend: backend, path: path, hello: client.hello, theme: theme)
    let session = AttachSession(app: app)
    session.start(with: client)
    let code = await app.application.run()
    withExtendedLifetime(session) {}
    return code
}
