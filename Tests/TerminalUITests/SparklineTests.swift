import Testing

@testable import TerminalUI

@Suite struct SparklineTests {
    @Test func barsScaleToTheLargestValue() {
        #expect(Sparkline([0, 1, 2, 4, 7]).text == "▁▂▃▅█")
        #expect(Sparkline([3, 3, 3]).text == "███", "a flat line at its top")
        #expect(Sparkline([0, 0]).text == "▁▁", "zero is the baseline")
        #expect(Sparkline([1, 1000]).text == "▂█", "anything above zero stands above the baseline")
    }

    @Test func noDataIsBlankAndASCIIHasItsOwnLevels() {
        #expect(Sparkline([nil, nil, 0, 7]).text == "  ▁█")
        #expect(Sparkline([nil, 0, 1, 7], ascii: true).text == " _.#")
        #expect(Sparkline([]).text == "")
    }

    @Test func rendersTheNewestValuesThatFit() {
        var buffer = Buffer(size: Size(width: 3, height: 1))
        Sparkline([0, 7, 0, 7]).render(into: &buffer, area: buffer.area)
        #expect(buffer.text(row: 0) == "█▁█")
        var empty = Buffer(size: Size(width: 1, height: 1))
        Sparkline([1]).render(into: &empty, area: Rect(x: 0, y: 0, width: 0, height: 0))
        #expect(empty.text(row: 0) == " ")
    }
}

@Suite struct ParagraphScrollTests {
    @Test func scrollsByLineAndPageWithinTheText() {
        var scroll = ParagraphScroll()
        var buffer = Buffer(size: Size(width: 10, height: 3))
        let text = Paragraph((1...10).map { Line("line \($0)") })
        scroll.render(text, into: &buffer, area: buffer.area)
        var handled = scroll.handle(.down)
        #expect(handled && scroll.offset == 1)
        handled = scroll.handle(.character(" "))
        #expect(handled && scroll.offset == 3, "a page is the height less one")
        _ = scroll.handle(.end)
        scroll.render(text, into: &buffer, area: buffer.area)
        #expect(scroll.offset == 7 && buffer.text(row: 2) == "line 10   ", "kept within the text")
        handled = scroll.handle(MouseEvent(.wheelUp, at: Point(x: 0, y: 0)))
        #expect(handled && scroll.offset == 4)
        let letter = scroll.handle(.character("x"))
        #expect(!letter)
        let click = scroll.handle(MouseEvent(.click, at: Point(x: 0, y: 0)))
        #expect(!click)
    }
}
