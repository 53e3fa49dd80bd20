import Testing

@testable import TerminalUI

@Suite struct ParagraphReflowTests {
    private func texts(_ lines: [Line]) -> [String] { lines.map(\.plainText) }
    private func hangs(_ lines: [Line]) -> [String] { lines.map { Line($0.continuation).plainText } }

    @Test func aParagraphBecomesOneLineAndBlankLinesStay() {
        let lines = Paragraph.reflowed("Watches the ledger\nof another process.\n\nNext one.")
        #expect(texts(lines) == ["Watches the ledger of another process.", "", "Next one."])
        #expect(hangs(lines) == ["", "", ""])
    }

    @Test func anEntryContinuesOnItsDeeperLinesWhichSetItsHang() {
        let text = """
              Leaks      one line per
                         signature, with a count.
              Owners     leaked ones first.
            """
        let lines = Paragraph.reflowed(text)
        #expect(
            texts(lines) == [
                "  Leaks      one line per signature, with a count.", "  Owners     leaked ones first.",
            ])
        #expect(hangs(lines) == [String(repeating: " ", count: 13), String(repeating: " ", count: 13)])
    }

    @Test func anEntryWhoseLinesHangLessThanItsGapKeepsTheirIndent() {
        let text = """
              1 Orientation  Task.store(in:), from
                  an article.
            """
        let lines = Paragraph.reflowed(text)
        #expect(texts(lines) == ["  1 Orientation  Task.store(in:), from an article."])
        #expect(hangs(lines) == ["      "])
    }

    /// A heading and a table's title are not joined with what follows them; nor are a key
    /// table's rows, each an entry.
    @Test func headingsTitlesAndTableRowsStayApart() {
        let text = """
            Keys
              Everywhere
                ?      Open the help
                q      Quit
            """
        let lines = Paragraph.reflowed(text)
        #expect(texts(lines) == ["Keys", "  Everywhere", "    ?      Open the help", "    q      Quit"])
        #expect(
            hangs(lines) == ["", "  ", String(repeating: " ", count: 11), String(repeating: " ", count: 11)])
    }

    /// Wrapped, an entry's rows start under its text after the gap, and fill the width.
    @Test func aReflowedEntryWrapsUnderItsText() {
        let text = """
              Leaks      one line per
                         signature, with a count.
            """
        let rows = Paragraph.wrap(Paragraph.reflowed(text)[0], width: 30)
        #expect(
            texts(rows) == [
                "  Leaks      one line per", "             signature, with a", "             count.",
            ])
    }
}
