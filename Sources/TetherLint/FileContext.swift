import SwiftParser
import SwiftSyntax

/// One parsed file as the rules see it: the tree, where its positions are, and its types.
///
/// Made, checked and dropped one file at a time; only the findings outlive it.
final class FileContext {
    let path: String
    let tree: SourceFileSyntax
    let types: TypeIndex
    /// Whether the file imports Tether: its fixes may then use Tether's bound forms.
    let importsTether: Bool
    private let converter: SourceLocationConverter
    private let bytes: [UInt8]

    init(path: String, source: String) {
        self.path = path
        bytes = Array(source.utf8)
        tree = Parser.parse(source: source)
        converter = SourceLocationConverter(fileName: path, tree: tree)
        types = TypeIndex(tree)
        importsTether = tree.statements.contains {
            $0.item.as(ImportDeclSyntax.self)?.path.trimmedDescription == "Tether"
        }
    }

    func owner(of node: some SyntaxProtocol) -> TypeInfo? { types.owner(of: node) }

    func finding(
        _ rule: RuleID, at node: some SyntaxProtocol, message: String, fix: String?, edits: [Edit] = []
    ) -> Finding {
        let position = node.positionAfterSkippingLeadingTrivia
        let location = converter.location(for: position)
        let lineStart = position.utf8Offset - (location.column - 1)
        let prefix = String(decoding: bytes[max(0, lineStart)..<position.utf8Offset], as: UTF8.self)
        return Finding(
            file: path, line: location.line, column: location.column, rule: rule, message: message, fix: fix,
            edits: edits, utf16Column: prefix.utf16.count + 1)
    }

    /// The text of the line `node` starts on up to its first non-blank character.
    func indentation(of node: some SyntaxProtocol) -> String {
        let offset = node.positionAfterSkippingLeadingTrivia.utf8Offset
        var start = offset
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        let line = bytes[start..<offset]
        return String(
            decoding: line.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }, as: UTF8.self)
    }
}

/// A rule: a syntax visitor over one file that collects findings.
class RuleVisitor: SyntaxVisitor {
    class var id: RuleID { fatalError("a rule names its id") }
    let context: FileContext
    private(set) var findings: [Finding] = []

    required init(context: FileContext) {
        self.context = context
        super.init(viewMode: .sourceAccurate)
    }

    func report(at node: some SyntaxProtocol, _ message: String, fix: String?, edits: [Edit] = []) {
        findings.append(context.finding(Self.id, at: node, message: message, fix: fix, edits: edits))
    }
}

extension Edit {
    /// Inserts `text` at `position`.
    static func insert(_ text: String, at position: AbsolutePosition) -> Edit {
        Edit(start: position.utf8Offset, end: position.utf8Offset, replacement: text)
    }

    /// Replaces `node` (without its trivia) by `text`.
    static func replace(_ node: some SyntaxProtocol, with text: String) -> Edit {
        Edit(
            start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: node.endPositionBeforeTrailingTrivia.utf8Offset, replacement: text)
    }

    /// Replaces `argument`'s label and its expression `node` by `label: text`.
    static func replace(
        _ node: ExprSyntax, with text: String, labelled label: String, in argument: LabeledExprSyntax
    ) -> Edit {
        Edit(
            start: argument.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: node.endPositionBeforeTrailingTrivia.utf8Offset, replacement: "\(label): \(text)")
    }
}
