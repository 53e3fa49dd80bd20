/// One place in a file where a rule found a binding that can outlive its owner.
///
/// A finding is a value: a check keeps these and drops the syntax tree they came from. Its
/// `edits`, when there are any, are the rule's safe fix as replacements of the file's bytes;
/// `fix` says in words what the fix is, whether or not it can be applied automatically.
public struct Finding: Sendable, Hashable {
    /// The file's path as the run prints it (relative to the working directory when under it).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in UTF-8 bytes as the Swift compiler counts them.
    public var column: Int
    public var rule: RuleID
    public var message: String
    /// The fix in words, when the rule knows one.
    public var fix: String?
    /// The fix as edits of the file, when it is safe to apply without a person.
    public var edits: [Edit]
    /// The column in UTF-16 code units (SARIF's default), which differs from `column` on lines
    /// with non-ASCII text before the finding.
    public var utf16Column: Int

    public init(
        file: String, line: Int, column: Int, rule: RuleID, message: String, fix: String? = nil,
        edits: [Edit] = [], utf16Column: Int? = nil
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.rule = rule
        self.message = message
        self.fix = fix
        self.edits = edits
        self.utf16Column = utf16Column ?? column
    }

    /// Orders findings by file, then line, column and rule: the order every format prints.
    public static func inPrintOrder(_ a: Finding, _ b: Finding) -> Bool {
        (a.file, a.line, a.column, a.rule.rawValue) < (b.file, b.line, b.column, b.rule.rawValue)
    }
}

/// A replacement of the bytes `start..<end` of a file (UTF-8 offsets) by `replacement`.
public struct Edit: Sendable, Hashable {
    public var start: Int
    public var end: Int
    public var replacement: String

    public init(start: Int, end: Int, replacement: String) {
        self.start = start
        self.end = end
        self.replacement = replacement
    }
}
