/// A Markdown page's Swift samples — the README's, or a DocC article's — as a reader copies them.
struct SamplePage: Sendable, CustomStringConvertible {
    /// A fenced ```` ```swift ```` block.
    struct Block: Sendable {
        /// The page's line of the block's first line of code (the line after the fence), from 1.
        let line: Int
        let code: [String]

        /// Whether the block declares a type (`class`, `struct`, `enum`, `actor`, `protocol`) or a
        /// test (`@Test`, `@Suite`): what a reader pastes into a file of their own. Fragments — a
        /// call, a few statements — need the code around them and are not compiled.
        var declaresTypeOrTest: Bool {
            code.contains { line in
                line.contains("@Test") || line.contains("@Suite")
                    || Self.firstWord(afterModifiersIn: line).map(Self.typeKeywords.contains) == true
            }
        }

        /// Whether the block has statements at its top level (a playground's or `main.swift`'s
        /// code) beside its declarations: it then compiles as `main.swift`.
        var hasTopLevelStatements: Bool {
            var depth = 0
            for line in code {
                let text = Self.codeOnly(line)
                let first = text.trimmingPrefix(while: \.isWhitespace)
                if depth == 0, let word = Self.firstWord(afterModifiersIn: String(first)),
                    !Self.declarationWords.contains(word)
                {
                    return true
                }
                depth += text.reduce(0) { depth, character in
                    switch character {
                    case "{", "(", "[": depth + 1
                    case "}", ")", "]": depth - 1
                    default: depth
                    }
                }
            }
            return false
        }

        private static let typeKeywords: Set<String> = ["class", "struct", "enum", "actor", "protocol"]
        private static let declarationWords: Set<String> =
            typeKeywords.union([
                "import", "extension", "func", "typealias", "#if", "#elseif", "#else", "#endif",
            ])
        private static let modifiers: Set<String> = [
            "public", "package", "internal", "fileprivate", "private", "open", "final", "nonisolated",
            "indirect", "static", "override",
        ]

        /// The line's first word once attributes (`@MainActor`, `@Test(.noLeaks)`) and modifiers
        /// are skipped; nil for a blank line, a comment or a line that starts with punctuation (a
        /// closing brace, a chained call).
        private static func firstWord(afterModifiersIn line: String) -> String? {
            var rest = Substring(codeOnly(line))
            while true {
                rest = rest.drop(while: \.isWhitespace)
                if rest.first == "@" {
                    rest = rest.dropFirst().drop { $0.isLetter || $0.isNumber || $0 == "_" }
                    if rest.first == "(" { rest = skipParentheses(rest) }
                    continue
                }
                let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "#" }
                guard !word.isEmpty else { return nil }
                if modifiers.contains(String(word)) {
                    rest = rest.dropFirst(word.count)
                    continue
                }
                return String(word)
            }
        }

        private static func skipParentheses(_ text: Substring) -> Substring {
            var depth = 0
            for index in text.indices {
                if text[index] == "(" { depth += 1 }
                if text[index] == ")" {
                    depth -= 1
                    if depth == 0 { return text[text.index(after: index)...] }
                }
            }
            return text[text.endIndex...]
        }

        /// The line without its string literals' contents and its `//` comment.
        private static func codeOnly(_ line: String) -> String {
            var code = ""
            var inString = false
            var escaped = false
            var previous: Character = " "
            for character in line {
                if inString {
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        inString = false
                        code.append(character)
                    }
                    continue
                }
                if character == "/", previous == "/" {
                    code.removeLast()
                    break
                }
                if character == "\"" { inString = true }
                code.append(character)
                previous = character
            }
            return code
        }
    }

    /// The page's path, from the package's root.
    let path: String
    /// The module a reader of the page has imported: a DocC catalog's, nil for the README.
    let module: String?
    let blocks: [Block]

    var description: String { path }

    /// The blocks of `text` fenced as `swift`.
    init(path: String, module: String?, text: String) {
        self.path = path
        self.module = module
        var blocks: [Block] = []
        var open: (line: Int, code: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingPrefix(while: \.isWhitespace)
            if var block = open {
                if trimmed.hasPrefix("```") {
                    blocks.append(Block(line: block.line, code: block.code))
                    open = nil
                } else {
                    block.code.append(String(line))
                    open = block
                }
            } else if trimmed.hasPrefix("```swift") {
                open = (index + 2, [])
            }
        }
        self.blocks = blocks
    }

    /// The blocks a reader pastes into a file of their own.
    var compiledBlocks: [Block] { blocks.filter(\.declaresTypeOrTest) }
}
