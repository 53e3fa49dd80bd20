import Foundation
import Testing

/// `File.swift:LINE` of the first line of `Sources/Lab/Scenarios/<path>` containing `needle`: the
/// call site the ledger should report, found without hard-coding line numbers. Found from this
/// file's place (Tests/LabTests/Support), so a test anywhere in the target can call it.
func scenarioSite(containing needle: String, in path: String) throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let source = try String(
        contentsOf: root.appendingPathComponent("Sources/Lab/Scenarios/\(path)"), encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let index = try #require(lines.firstIndex { $0.contains(needle) }, "\(needle) in \(path)")
    return "\(URL(fileURLWithPath: path).lastPathComponent):\(index + 1)"
}
