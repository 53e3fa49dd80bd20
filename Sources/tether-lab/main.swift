// tether-lab: parses the command line, then runs the lab on the terminal, headless, or as a soak.
//
// The top level stays synchronous, on the main thread: an async top level would drain the main
// queue with dispatch_main, which on Linux hands the main actor to worker threads — and every
// ncurses call must stay on the main OS thread.
import ArgumentParser
import Foundation
import Lab
import TerminalUI
import Tether

/// Runs `body` on the main actor, parking the main thread in its run loop until `body` exits
/// the process with the code it returns.
func runOnMainActor(_ body: @escaping @MainActor () async -> Int32) -> Never {
    Task { @MainActor in exit(await body()) }
    while true { RunLoop.main.run() }
}

/// Prints `tether-lab: <problem> (see --help)` on stderr and exits with code 2.
func fail(_ problem: String) -> Never {
    Terminal.printError("tether-lab: \(problem) (see --help)")
    exit(2)
}

let command: LabCommand
do {
    command = try LabCommand.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if LabCommand.exitCode(for: error) == .success {
        print(LabCommand.fullMessage(for: error))
        exit(0)
    }
    let message =
        LabCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad arguments"
    let first = message.first.map { String($0).lowercased() + message.dropFirst() } ?? message
    fail(first)
}

let scenarios = Scenarios.all
let environmentVariables = Terminal.environment

if let cycles = command.soak {
    let modes = (command.soakModes ?? .both).modes
    let checkRSS = !command.noRSSCheck
    runOnMainActor {
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
    runOnMainActor {
        let lab = HeadlessLab(size: size, scenarios: scenarios, theme: theme)
        await lab.run(steps)
        print(output == .json ? lab.json() : lab.screenText)
        return 0
    }
}

if let message = Terminal.requireTTY(program: "tether-lab") {
    Terminal.printError(message)
    exit(2)
}

var theme = Theme.fromEnvironment(environmentVariables)
let backend: NcursesBackend
do {
    backend = try NcursesBackend(options: .init(colors: !theme.isMonochrome))
} catch {
    Terminal.printError("tether-lab: \(error)")
    exit(1)
}
if !backend.isUnicode { theme = theme.ascii }
let lab = LabApp(
    backend: backend, environment: LabEnvironment(clock: SystemClock()), scenarios: scenarios, theme: theme)
lab.application.runMain()
