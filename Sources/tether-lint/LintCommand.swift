import ArgumentParser
import Foundation
import TetherLint

/// `tether-lint`'s command line.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tether-lint",
        abstract: "Finds tasks, subscriptions and observers that can outlive their owners, before they run.",
        discussion: """
            Rules: \(RuleID.rules.map(\.rawValue).joined(separator: ", ")).
            Silence a finding with `// tether-lint: ignore RULE-ID — reason` on its line or the line above.
            Exit status: 0, or 1 with findings under --strict; 2 for bad usage or a path that cannot be read.
            """)

    @Argument(help: "Swift files or folders to check (folders recursively, .build skipped).")
    var paths: [String] = ["."]

    @Option(help: "How findings are printed: text, json or sarif.")
    var format: OutputFormat = .text

    @Flag(help: "Exit with status 1 when there are findings.")
    var strict = false

    @Flag(help: "Apply the fixes that are safe, in place, and print each change (on stderr).")
    var fix = false

    @Flag(name: .customLong("no-ignores"), help: "Report findings that ignore comments silence, too.")
    var noIgnores = false

    /// The build-tool plugin's: a file to write once the check is done, and paths printed whole.
    @Option(help: .hidden)
    var stamp: String?

    @Flag(name: .customLong("absolute-paths"), help: .hidden)
    var absolutePaths = false

    @Option(
        help: ArgumentHelp("Run only these rules, comma-separated.", valueName: "rule,rule…"),
        transform: Self.parseRules)
    var rules: Set<RuleID> = Set(RuleID.rules)

    static func parseRules(_ text: String) throws -> Set<RuleID> {
        var rules: Set<RuleID> = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
        where !name.isEmpty {
            guard let rule = RuleID(rawValue: name), rule != .parseError else {
                throw ValidationError(
                    "unknown rule '\(name)' (rules: \(RuleID.rules.map(\.rawValue).joined(separator: ", ")))")
            }
            rules.insert(rule)
        }
        guard !rules.isEmpty else { throw ValidationError("--rules names no rule") }
        return rules
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif

    var format: Format { Format(rawValue: rawValue)! }
}
