import Foundation
import PackagePlugin

/// Runs tether-lint over a target's Swift files whenever they change; its findings show as
/// warnings in `swift build`'s output and in Xcode, and never fail the build.
///
/// Add it to a target: `plugins: [.plugin(name: "TetherLintBuild", package: "Tether")]`.
@main
struct TetherLintBuild: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles(withSuffix: "swift").map(\.url)
        guard !files.isEmpty else { return [] }
        // The command's output, so the build system runs it again only when a file changed: a
        // Swift file that holds one comment (any other kind of file would become a resource).
        let stamp = context.pluginWorkDirectoryURL.appendingPathComponent("\(target.name)+TetherLint.swift")
        return [
            .buildCommand(
                displayName: "tether-lint \(target.name)",
                executable: try context.tool(named: "tether-lint").url,
                arguments: ["--absolute-paths", "--stamp", stamp.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [stamp])
        ]
    }
}
