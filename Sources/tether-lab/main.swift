// tether-lab: parses the command line, then runs the lab on the terminal, headless, or as a soak —
// serving its ledger with --serve — or attaches to another process (`tether-lab attach PATH`).
//
// The top level stays synchronous, on the main thread: an async top level would drain the main
// queue with dispatch_main, which on Linux hands the main actor to worker threads — and every
// ncurses call must stay on the main OS thread.
import ArgumentParser
import Foundation
import Lab
import TerminalUI
import Tether

/// Prints `<program>: <problem> (see --help)` on stderr and exits with code 2.
func fail(_ problem: String, program: String = "tether-lab") -> Never {
    Terminal.printError("\(program): \(problem) (see --help)")
    exit(2)
}

/// Parses `arguments` as `command`; prints the help and exits 0 when asked for it, or prints the
/// first line of the error and exits 2.
func parse<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String], program: String)
    -> Command
{
    do {
        return try Command.parse(arguments)
    } catch {
        if Command.exitCode(for: error) == .success {
            // The help of `attach` as the root prints it: with its place in `tether-lab attach`.
            print(
                Command.self == LabCommand.self
                    ? LabCommand.fullMessage(for: error) : LabCommand.helpMessage(for: Command.self))
            exit(0)
        }
        let message =
            Command.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad arguments"
        fail(message.first.map { String($0).lowercased() + message.dropFirst() } ?? message, program: program)
    }
}

// `attach` is LabCommand's subcommand (its help lists it), dispatched here by hand: the lab's own
// options include a `--dump` of their own, which swift-argument-parser would let take attach's.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == AttachCommand.configuration.commandName {
    runAttach(parse(AttachCommand.self, Array(arguments.dropFirst()), program: "tether-lab attach"))
}
// After the lab's options, `attach` would reach swift-argument-parser as a subcommand it cannot
// place ("internal error"): say where it goes instead.
if arguments.dropFirst().contains(where: { $0 == AttachCommand.configuration.commandName }),
    (try? LabCommand.parse(arguments)) == nil
{
    fail("attach comes first: tether-lab attach PATH")
}
let command = parse(LabCommand.self, arguments, program: "tether-lab")

let scenarios = Scenarios.all
let environmentVariables = Terminal.environment

if let cycles = command.soak {
    let modes = (command.soakModes ?? .both).modes
    let checkRSS = !command.noRSSCheck
    MainRunLoop.run {
        let report = await Soak.run(cycles: cycles, scenarios: scenarios, modes: modes, checkRSS: checkRSS)
        for line in report.lines { print(line) }
        return report.passed ? 0 : 1
    }
}

if command.headless {
    let size = command.size?.size ?? Size(width: 120, height: 40)
    let output = command.dump ?? .json
    let steps: [KeyStep]
    do {
        if let path = command.script {
            let bundled = path.contains("/") ? nil : LabResources.script(named: path)
            let text: String
            if let bundled, !FileManager.default.fileExists(atPath: path) {
                text = bundled
            } else {
                guard let file = try? String(contentsOfFile: path, encoding: .utf8) else {
                    fail("cannot read script \"\(path)\"")
                }
                text = file
            }
            steps = try KeyScript.parse(text, comments: true)
        } else {
            steps = try KeyScript.parse(command.keys ?? "")
        }
    } catch {
        fail(error.description)
    }
    let theme = Theme.fromEnvironment(environmentVariables)
    let serve = command.serve
    MainRunLoop.run {
        let lab = HeadlessLab(size: size, scenarios: scenarios, theme: theme)
        let server = serve.map { startServing(lab.environment.ledger, at: $0) }
        let stop = server.map { _ in ServingStop() }
        await lab.run(steps)
        print(output == .json ? lab.json() : lab.screenText)
        guard let server, let stop else { return 0 }
        fflush(nil)  // the dump reaches a pipe before the lab waits
        await stop.wait()
        server.stop()
        return 0
    }
}

if let message = Terminal.requireTTY(program: "tether-lab") {
    Terminal.printError(message)
    exit(2)
}

let environment = LabEnvironment(clock: SystemClock())
// Before the terminal is taken: a path that cannot be served is one line on a normal terminal.
let server = command.serve.map { startServing(environment.ledger, at: $0) }
let (backend, theme) = openTerminal(program: "tether-lab")
let lab = LabApp(backend: backend, environment: environment, scenarios: scenarios, theme: theme)
// However the lab ends — q, a signal — the socket goes with it.
lab.application.onShutdown = { server?.stop() }
lab.application.runMain()
