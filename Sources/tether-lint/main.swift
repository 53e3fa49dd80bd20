// tether-lint: parses the command line, finds the files, checks them on every core, prints the
// findings and exits 0, 1 (findings under --strict) or 2 (bad usage, a path that cannot be read).
import ArgumentParser
import Foundation
import TetherLint

/// Prints `tether-lint: <problem>` on stderr and exits with code 2.
func fail(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("tether-lint: \(problem)\n".utf8))
    exit(2)
}

let command: LintCommand
do {
    command = try LintCommand.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if LintCommand.exitCode(for: error) == .success {
        print(LintCommand.fullMessage(for: error))
        exit(0)
    }
    let message =
        LintCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad arguments"
    fail((message.first.map { $0.lowercased() + message.dropFirst() } ?? message) + " (see --help)")
}

let files: [LintRun.File]
do {
    files = try LintRun.files(in: command.paths, workingDirectory: FileManager.default.currentDirectoryPath)
        .map { command.absolutePaths ? LintRun.File(path: $0.path, displayPath: $0.path) : $0 }
} catch {
    fail(error.description)
}

let linter = Linter(rules: command.rules, honorsIgnores: !command.noIgnores)
let fix = command.fix
let outcome = await LintRun.run(files, linter: linter, fix: fix)
for skip in outcome.skipped {
    FileHandle.standardError.write(Data("tether-lint: skipped \(skip.path): \(skip.reason)\n".utf8))
}
for change in outcome.fixed {
    FileHandle.standardError.write(Data((Format.fixedLine(for: change) + "\n").utf8))
}
print(command.format.format.render(outcome.findings), terminator: "")
// The build-tool plugin's output: a Swift file with one comment, written once the check is done.
if let stamp = command.stamp {
    let text = "// tether-lint checked \(outcome.files) files: \(outcome.findings.count) findings.\n"
    guard FileManager.default.createFile(atPath: stamp, contents: Data(text.utf8)) else {
        fail("cannot write \(stamp)")
    }
}
exit(command.strict && !outcome.findings.isEmpty ? 1 : 0)
