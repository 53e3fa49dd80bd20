import Foundation
import SwiftSyntax

/// Checks Swift source for bindings that can outlive their owners.
///
/// A value: make one with the rules to run and check any number of files with it, from any
/// thread. Each check parses the file, runs the rules over the tree, and keeps only findings.
///
/// ```swift
/// let findings = Linter().check(source: text, path: "Sources/App/Feed.swift")
/// ```
public struct Linter: Sendable {
    /// The rules that run (never `.parseError`, which is not a rule).
    public var rules: Set<RuleID>
    /// Whether `// tether-lint: ignore RULE-ID` comments silence findings.
    public var honorsIgnores: Bool

    public init(rules: Set<RuleID> = Set(RuleID.rules), honorsIgnores: Bool = true) {
        self.rules = rules.subtracting([.parseError])
        self.honorsIgnores = honorsIgnores
    }

    private static let visitors: [RuleID: RuleVisitor.Type] = [
        .unstoredTask: UnstoredTaskRule.self,
        .strongSelfLoop: StrongSelfLoopRule.self,
        .sinkRetainCycle: SinkRetainCycleRule.self,
        .foreignBag: ForeignBagRule.self,
        .unownedSelfPublisher: UnownedSelfPublisherRule.self,
        .taskInSink: TaskInSinkRule.self,
        .discardedObserver: DiscardedObserverRule.self,
    ]

    /// The findings in `source`, in print order, with `path` as their file. A file that does
    /// not parse gives one `.parseError` finding and is not checked further.
    public func check(source: String, path: String) -> [Finding] {
        let context = FileContext(path: path, source: source)
        if context.tree.hasError {
            return [ParseErrors.finding(in: context)]
        }
        var findings: [Finding] = []
        for rule in RuleID.rules where rules.contains(rule) {
            let visitor = Self.visitors[rule]!.init(context: context)
            visitor.walk(context.tree)
            findings += visitor.findings
        }
        if honorsIgnores {
            let ignores = IgnoreComments(source)
            findings.removeAll { ignores.silences($0) }
        }
        return findings.sorted(by: Finding.inPrintOrder)
    }
}

/// `// tether-lint: ignore RULE-ID[, RULE-ID…] — reason`, by line: it silences those rules'
/// findings on its own line and on the line below.
struct IgnoreComments {
    private var rulesByLine: [Int: Set<String>] = [:]
    private static let marker = "tether-lint: ignore"

    init(_ source: String) {
        // Most files have none: one pass over the bytes says so (Foundation's `contains` would
        // bridge the whole file to an NSString first).
        guard Self.mentionsMarker(source) else { return }
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let comment = line.range(of: "//"), let marker = line.range(of: Self.marker),
                comment.lowerBound <= marker.lowerBound
            else { continue }
            let words = line[marker.upperBound...].split { $0 == " " || $0 == "," }
            let ids = words.prefix(while: Self.isRuleID).map(String.init)
            rulesByLine[index + 1] = Set(ids)
        }
    }

    private static func mentionsMarker(_ source: String) -> Bool {
        let marker = Array(Self.marker.utf8)
        var source = source
        return source.withUTF8 { bytes in
            guard bytes.count >= marker.count else { return false }
            for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
                if (1..<marker.count).allSatisfy({ bytes[start + $0] == marker[$0] }) { return true }
            }
            return false
        }
    }

    private static func isRuleID(_ word: Substring) -> Bool {
        word.contains { $0.isLetter } && word.allSatisfy { $0.isLowercase || $0 == "-" }
    }

    func silences(_ finding: Finding) -> Bool {
        for line in [finding.line, finding.line - 1]
        where rulesByLine[line]?.contains(finding.rule.rawValue) == true {
            return true
        }
        return false
    }
}

/// The one finding a file that does not parse gets: where the parser first gave up.
enum ParseErrors {
    static func finding(in context: FileContext) -> Finding {
        let node = firstError(in: context.tree) ?? Syntax(context.tree)
        let what: String
        if let token = node.as(TokenSyntax.self), token.presence == .missing {
            what = "expected '\(token.text)'"
        } else {
            let text = node.trimmedDescription.prefix(40)
            what = text.isEmpty ? "unexpected end of file" : "unexpected '\(text)'"
        }
        return context.finding(
            .parseError, at: node, message: "the file does not parse (\(what)); it was not checked", fix: nil)
    }

    /// The first token the parser had to invent, or the first run of code it could not place.
    private static func firstError(in tree: SourceFileSyntax) -> Syntax? {
        for token in tree.tokens(viewMode: .all) {
            if token.presence == .missing { return Syntax(token) }
            if let unexpected = token.ancestor(UnexpectedNodesSyntax.self) { return Syntax(unexpected) }
        }
        return nil
    }
}
