import Foundation
import PackagePlugin

/// `swift package tether-lint [--fix] [--target NAME]… [tether-lint's options]`: checks the
/// package's source targets (or the ones named) and prints the findings; exits non-zero when
/// tether-lint does (`--strict` with findings, bad usage).
///
/// Read-only: the plugin declares no permission, so a plain run never asks for one. `--fix`
/// rewrites sources, which SwiftPM allows when the user grants it for that run:
/// `swift package --allow-writing-to-package-directory tether-lint --fix`.
@main
struct TetherLintCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let fix = extractor.extractFlag(named: "fix") > 0
        // SwiftPM's own grant may be passed after the verb too; it is not tether-lint's.
        _ = extractor.extractFlag(named: "allow-writing-to-package-directory")
        let targets =
            names.isEmpty
            ? context.package.sourceModules.filter { $0.kind != .test }
            : try context.package.targets(named: names).compactMap { $0 as? SourceModuleTarget }
        let package = context.package.directoryURL
        if fix { try requireWriting(package) }
        let paths = targets.map(\.directoryURL.path).sorted()
        guard !paths.isEmpty else {
            Diagnostics.remark("tether-lint: no source targets to check")
            return
        }
        let process = Process()
        process.executableURL = try context.tool(named: "tether-lint").url
        process.currentDirectoryURL = package
        process.arguments = (fix ? ["--fix"] : []) + extractor.remainingArguments + paths
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            Diagnostics.error("tether-lint exited with status \(process.terminationStatus)")
            exit(process.terminationStatus == 0 ? 1 : process.terminationStatus)
        }
    }

    /// Fails with the remedy when the package directory cannot be written (the sandbox on macOS,
    /// without `--allow-writing-to-package-directory`).
    private func requireWriting(_ package: URL) throws {
        let probe = package.appendingPathComponent(".tether-lint-write-check")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else {
            throw FixNeedsPermission()
        }
        try? FileManager.default.removeItem(at: probe)
    }
}

struct FixNeedsPermission: Error, CustomStringConvertible {
    var description: String {
        "tether-lint --fix rewrites sources: run swift package --allow-writing-to-package-directory tether-lint --fix"
    }
}
