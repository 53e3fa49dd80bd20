// tether-lab: parses the command line, then runs the lab on the terminal, headless, or as a soak.
//
// The top level stays synchronous, on the main thread: an async top level would drain the main
// queue with dispatch_main, which on Linux hands the main actor to worker threads — and every
// ncurses call must stay on the main OS thread.
import ArgumentParser
import Foundation
import Glibc
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

if let n = command.soak {
    guard n > 0 else { fail("bad --soak count \(n) (expected a positive number)") }
    guard command.keys == nil, command.script == nil, command.dump == nil else {
        fail("--soak runs by itself; it takes no --keys, --script or --dump")
    }
    let modes: [Mode]
    switch command.soakModes ?? "both" {
    case "both": modes = [.bound, .leaky]
    case "bound": modes = [.bound]
    case "leaky": modes = [.leaky]
    case let other: fail("bad --soak-modes \"\(other)\" (expected bound, leaky or both)")
    }
    let checkRSS = !command.noRSSCheck
    runOnMainActor {
        let report = await Soak.run(cycles: n, scenarios: scenarios, modes: modes, checkRSS: checkRSS)
        for line in report.lines { print(line) }
        return report.passed ? 0 : 1
    }
}

if command.soakModes != nil || command.noRSSCheck {
    fail("--soak-modes and --no-rss-check go with --soak")
}

if command.headless {
    var size = Size(width: 120, height: 40)
    if let text = command.size {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...1000).contains(w),
            (1...1000).contains(h)
        else { fail("bad size \"\(text)\" (expected WxH, e.g. 120x40)") }
        size = Size(width: w, height: h)
    }
    let output = command.dump ?? "json"
    guard output == "json" || output == "screen" else {
        fail("bad --dump \"\(output)\" (expected json or screen)")
    }
    guard command.keys == nil || command.script == nil else { fail("give --keys or --script, not both") }
    var steps: [KeyStep] = []
    do {
        if let keys = command.keys { steps = try KeyScript.parse(keys) }
        if let path = command.script {
            let text: String
            if let bundled = LabResources.script(named: path), !path.contains("/"), access(path, F_OK) != 0 {
                text = bundled
            } else {
                guard let data = FileReader.read(path) else { fail("cannot read script \"\(path)\"") }
                text = data
            }
            steps = try KeyScript.parse(text, comments: true)
        }
    } catch {
        fail(error.description)
    }
    let theme = Theme.fromEnvironment(environmentVariables)
    runOnMainActor { [steps, size] in
        let lab = HeadlessLab(size: size, scenarios: scenarios, theme: theme)
        await lab.run(steps)
        print(output == "json" ? lab.json() : lab.screenText)
        return 0
    }
}

if command.size != nil || command.keys != nil || command.script != nil || command.dump != nil {
    fail("--size, --keys, --script and --dump need --headless")
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
