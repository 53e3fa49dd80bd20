/// The formats a run prints its findings in.
public enum Format: String, Sendable, CaseIterable {
    /// `FILE:LINE:COLUMN: warning: MESSAGE (RULE-ID)`, one a line: what SwiftPM, Xcode and
    /// editors read.
    case text
    /// An array of `{file, line, column, rule, message, fix}`.
    case json
    /// SARIF 2.1.0, for code scanning.
    case sarif

    /// `findings` in this format, ending with a newline when not empty.
    public func render(_ findings: [Finding]) -> String {
        switch self {
        case .text: findings.map { Self.line(for: $0) + "\n" }.joined()
        case .json: JSONFormat.render(findings)
        case .sarif: SARIFFormat.render(findings)
        }
    }

    public static func line(for finding: Finding) -> String {
        "\(finding.file):\(finding.line):\(finding.column): warning: \(finding.message) (\(finding.rule.rawValue))"
    }

    /// The line `--fix` prints for a change it made.
    public static func fixedLine(for finding: Finding) -> String {
        "\(finding.file):\(finding.line):\(finding.column): fixed: \(finding.fix ?? finding.message) (\(finding.rule.rawValue))"
    }
}
