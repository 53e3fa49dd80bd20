extension Paragraph {
    /// The logical lines of text written hard-wrapped for a terminal (a help text): each
    /// paragraph or entry joined into one line, so that ``wrap(_:width:)`` fills the rows of any
    /// width, and wrapped rows keep the source's hanging indent.
    ///
    /// - A blank line ends what comes before it and stays.
    /// - A *paragraph* continues on the lines at its own indent.
    /// - An *entry* is an indented line whose first words are followed by a gap of two spaces or
    ///   more (`  Leaks      one line per…`, a key table's row). It continues on the deeper lines
    ///   that follow it, which set its hanging indent; alone, it hangs where its text after the gap
    ///   starts.
    /// - A line that is an entry itself always starts anew.
    ///
    /// ```text
    /// Watches the ledger of another        →  Watches the ledger of another process live.
    /// process live.
    ///   Leaks      one line per            →    Leaks      one line per signature, with
    ///              signature, with a count.                a count.
    /// ```
    public static func reflowed(_ text: String) -> [Line] {
        var lines: [Line] = []
        var current: Reflowing?
        func flush() {
            guard let reflowing = current else { return }
            lines.append(reflowing.line)
            current = nil
        }
        for source in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let row = Reflowing.Row(String(source))
            if row.text.isEmpty {
                flush()
                lines.append(Line(""))
            } else if current?.continues(with: row) == true {
                current?.append(row)
            } else {
                flush()
                current = Reflowing(row)
            }
        }
        flush()
        return lines
    }
}

/// One paragraph or entry being joined.
private struct Reflowing {
    /// A source line: its indent in columns, its text after the indent, and, for an entry, the
    /// column its text after the gap starts at.
    struct Row {
        let indent: Int
        let text: Substring
        let gapEnd: Int?

        init(_ source: String) {
            let text = source.drop { $0 == " " }
            let indent = source.count - text.count  // spaces, a column each
            self.text = text
            self.indent = indent
            gapEnd = indent > 0 ? Row.gapEnd(of: text).map { indent + $0 } : nil
        }

        /// Where the text after the first gap of two spaces or more starts, in columns from the
        /// text's start.
        private static func gapEnd(of text: Substring) -> Int? {
            var spaces = 0
            var column = 0
            for character in text {
                if character == " " {
                    spaces += 1
                } else {
                    if spaces >= 2 { return column }
                    spaces = 0
                }
                column += CharacterWidth.of(character)
            }
            return nil
        }
    }

    private let first: Row
    private var text: String
    /// The indent of the lines that continue an entry, once one has.
    private var hang: Int?

    init(_ row: Row) {
        first = row
        text = String(row.text)
    }

    func continues(with row: Row) -> Bool {
        guard row.gapEnd == nil else { return false }
        guard first.gapEnd != nil else { return row.indent == first.indent }
        return hang.map { row.indent == $0 } ?? (row.indent > first.indent)
    }

    mutating func append(_ row: Row) {
        if first.gapEnd != nil && hang == nil { hang = row.indent }
        text += " " + row.text
    }

    var line: Line {
        var line = Line(String(repeating: " ", count: first.indent) + text)
        let indent = hang ?? first.gapEnd ?? first.indent
        if indent > 0 { line.continuation = [TextSpan(String(repeating: " ", count: indent))] }
        return line
    }
}
