/// A run of text in one style.
///
/// A plain value: `Sendable`.
public struct TextSpan: Hashable, Sendable, ExpressibleByStringLiteral {
    public var text: String
    public var style: Style
    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }
    public init(stringLiteral value: String) { self.init(value) }
    public var width: Int { CharacterWidth.of(text) }
}

/// A line of styled spans.
///
/// A plain value: `Sendable`.
public struct Line: Hashable, Sendable, ExpressibleByStringLiteral {
    public var spans: [TextSpan]
    /// What each row after the first starts with when the line is wrapped (a tree's rail, an
    /// indent); none by default.
    public var continuation: [TextSpan] = []
    public init(_ spans: [TextSpan]) { self.spans = spans }
    public init(_ text: String, style: Style = .plain) { self.spans = [TextSpan(text, style: style)] }
    public init(stringLiteral value: String) { self.init(value) }
    public var width: Int { spans.reduce(0) { $0 + $1.width } }
    public var plainText: String { spans.map(\.text).joined() }
}
