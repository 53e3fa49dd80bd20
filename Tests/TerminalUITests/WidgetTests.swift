import Testing

@testable import TerminalUI

private func render(_ widget: some Widget, width: Int, height: Int) -> [String] {
    var b = Buffer(size: Size(width: width, height: height))
    widget.render(into: &b, area: b.area)
    return b.textLines
}

@Suite struct WidgetTests {
    @Test func paragraphWrapsAtWordsAndClipsRows() {
        let p = Paragraph("the quick brown fox jumps")
        #expect(render(p, width: 10, height: 2) == ["the quick ", "brown fox "])
        #expect(render(p, width: 10, height: 4) == ["the quick ", "brown fox ", "jumps     ", "          "])
    }

    @Test func paragraphHeightCountsTheWrappedRowsOfEveryLine() {
        let lines = [Line("the quick brown fox jumps"), Line(""), Line("abcdefgh")]
        #expect(Paragraph.height(of: lines, width: 10) == 3 + 1 + 1)
        #expect(Paragraph.height(of: lines, width: 3) == 8 + 1 + 3)  // the|qui|ck|bro|wn|fox|jum|ps
        #expect(Paragraph.height(of: lines, width: 0) == 0)
    }

    @Test func paragraphBreaksLongWordsAndKeepsWideCharactersWhole() {
        #expect(render(Paragraph("abcdefgh"), width: 3, height: 3) == ["abc", "def", "gh "])
        #expect(render(Paragraph("中文字"), width: 3, height: 3) == ["中 ", "文 ", "字 "])
    }

    @Test func paragraphLeadsWrappedRowsWithTheLinesContinuation() {
        var line = Line("│  the quick brown fox")
        line.continuation = [TextSpan("│  ")]
        #expect(
            render(Paragraph([line]), width: 12, height: 3) == [
                "│  the quick", "│  brown fox", "            ",
            ])
        #expect(Paragraph.height(of: [line], width: 12) == 2)
        #expect(
            render(Paragraph([line]), width: 3, height: 2) == ["│  ", "the"],
            "a continuation as wide as the row is left out")
    }

    @Test func aContinuationLeavesRoomForAWideCharacter() {
        var line = Line("ab中")
        line.continuation = [TextSpan("  ")]
        let rows = Paragraph.wrap(line, width: 3)
        #expect(rows.map(\.plainText) == ["ab", "中"], "a lead of 2 in 3 columns would leave 中 no room")
        #expect(rows.allSatisfy { $0.width <= 3 })
    }

    @Test func crlfEndsALineAndTakesNoColumn() {
        var buffer = Buffer(size: Size(width: 6, height: 1))
        #expect(buffer.setString("a\r\nb", x: 0, y: 0) == 2)
        #expect(buffer.trimmedTextLines == ["ab"])
        #expect(render(Paragraph("one\r\ntwo"), width: 8, height: 2) == ["one     ", "two     "])
    }

    @Test func anUnwrappedParagraphScrollsToItsLastLine() {
        let lines = (0..<10).map { Line("line \($0) " + String(repeating: "x", count: 40)) }
        let paragraph = Paragraph(lines, wrap: false)
        var scroll = ParagraphScroll()
        var buffer = Buffer(size: Size(width: 10, height: 5))
        scroll.render(paragraph, into: &buffer, area: buffer.area)
        _ = scroll.handle(.end)
        buffer.reset()
        scroll.render(paragraph, into: &buffer, area: buffer.area)
        #expect(scroll.offset == 5)
        #expect(buffer.trimmedTextLines.last == "line 9 xxx")
    }

    @Test func paragraphWithoutWrapClipsAndAligns() {
        #expect(render(Paragraph("abcdef", wrap: false), width: 4, height: 1) == ["abcd"])
        #expect(render(Paragraph("ab", alignment: .right), width: 4, height: 1) == ["  ab"])
        #expect(render(Paragraph("ab", alignment: .center), width: 4, height: 1) == [" ab "])
    }

    @Test func blockDrawsBorderAndTitle() {
        #expect(
            render(Block(title: "Counter"), width: 12, height: 3) == [
                "┌Counter───┐",
                "│          │",
                "└──────────┘",
            ])
        #expect(
            render(Block(title: "Long title", lines: .ascii), width: 6, height: 2) == ["+Long+", "+----+"])
        #expect(Block().inner(Rect(x: 0, y: 0, width: 5, height: 4)) == Rect(x: 1, y: 1, width: 3, height: 2))
    }

    @Test func widgetsSurviveZeroSizeAndOneByOne() {
        let widgets: [any Widget] = [
            Paragraph("hello"), Block(title: "t"), ListView(["a", "b"]), ProgressBar(ratio: 0.5),
            LogView(["x", "y"]), KeyHintBar([KeyHint("q", "quit")]),
        ]
        for w in widgets {
            #expect(render(w, width: 0, height: 0) == [])
            #expect(render(w, width: 1, height: 1).count == 1)
        }
        #expect(render(Block(), width: 1, height: 1) == ["┌"])
        #expect(render(Paragraph("hello"), width: 1, height: 1) == ["h"])
    }

    @Test func listHighlightsSelectionAndScrollsToIt() {
        var state = ListState(selected: 3)
        var b = Buffer(size: Size(width: 6, height: 2))
        ListView(["a", "b", "c", "d"]).render(into: &b, area: b.area, state: &state)
        #expect(b.textLines == ["  c   ", "> d   "])
        #expect(state.offset == 2)
        #expect(b.style(x: 5, y: 1) == .reverse)
        state.move(by: -3, count: 4)
        ListView(["a", "b", "c", "d"]).render(into: &b, area: b.area, state: &state)
        #expect(b.textLines == ["> a   ", "  b   "])
    }

    @Test func progressBarFillsProportionallyWithCenteredLabel() {
        var b = Buffer(size: Size(width: 10, height: 1))
        ProgressBar(ratio: 0.5).render(into: &b, area: b.area)
        #expect(b.textLines == ["   50%    "])
        #expect(b.style(x: 4, y: 0) == .reverse)
        #expect(b.style(x: 5, y: 0) == .plain)
        #expect(render(ProgressBar(ratio: 2, label: "done"), width: 4, height: 1) == ["done"])
    }

    @Test func logViewShowsTheTailOrScrollsBack() {
        let lines: [Line] = ["1", "2", "3", "4"]
        #expect(render(LogView(lines), width: 2, height: 2) == ["3 ", "4 "])
        #expect(render(LogView(lines, scrollBack: 1), width: 2, height: 2) == ["2 ", "3 "])
        #expect(render(LogView(lines, scrollBack: 9), width: 2, height: 2) == ["1 ", "2 "])
        #expect(render(LogView(["a"]), width: 2, height: 2) == ["a ", "  "])
    }

    @Test func keyHintBarDropsHintsThatDoNotFit() {
        let bar = KeyHintBar([KeyHint("q", "quit"), KeyHint("Esc", "back")])
        #expect(render(bar, width: 16, height: 1) == ["q quit  Esc back"])
        #expect(render(bar, width: 10, height: 1) == ["q quit    "])
        #expect(KeyHintBar.width(of: [KeyHint("q", "quit"), KeyHint("Esc", "back")]) == 16)
    }
}
