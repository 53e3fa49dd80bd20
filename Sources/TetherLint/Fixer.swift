/// Applies findings' edits to a file's text, keeping everything else byte for byte.
public enum Fixer {
    /// `source` with the edits of `findings` applied, and the findings whose edits were. A
    /// finding whose edits overlap an earlier one's is left for a second run.
    public static func apply(_ findings: [Finding], to source: String) -> (source: String, applied: [Finding])
    {
        var taken: [Range<Int>] = []
        var edits: [Edit] = []
        var applied: [Finding] = []
        for finding in findings where !finding.edits.isEmpty {
            let ranges = finding.edits.map { $0.start..<max($0.end, $0.start + 1) }
            guard !ranges.contains(where: { range in taken.contains { $0.overlaps(range) } }) else {
                continue
            }
            taken += ranges
            edits += finding.edits
            applied.append(finding)
        }
        var bytes = Array(source.utf8)
        for edit in edits.sorted(by: { $0.start > $1.start }) {
            bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.replacement.utf8))
        }
        return (String(decoding: bytes, as: UTF8.self), applied)
    }
}
