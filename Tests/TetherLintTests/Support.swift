import Testing
import TetherLint

/// Checks `source` with `rule` alone and expects findings on exactly the lines marked
/// `// ⚠️` (one finding a line): what the rule finds and what it leaves alone, in one source.
func expectFindings(
    _ rule: RuleID, in source: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let findings = Linter(rules: [rule]).check(source: source, path: "Sample.swift")
    #expect(
        !findings.contains { $0.rule == .parseError }, "the sample does not parse",
        sourceLocation: sourceLocation)
    let marked = source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        .filter { $0.element.contains("// ⚠️") }.map { $0.offset + 1 }
    #expect(
        findings.map(\.line) == marked,
        "\(findings.map { "\($0.line):\($0.column) \($0.message)" })", sourceLocation: sourceLocation)
}

/// `source` after `--fix` with `rule` alone.
func fixed(_ rule: RuleID, _ source: String) -> String {
    let findings = Linter(rules: [rule]).check(source: source, path: "Sample.swift")
    return Fixer.apply(findings, to: source).source
}
