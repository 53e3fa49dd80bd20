import Testing

@testable import TerminalUI

@Suite struct BufferTests {
    @Test func cellIsEightBytesWithoutPadding() {
        #expect(MemoryLayout<Cell>.size == 8)
        #expect(MemoryLayout<Cell>.stride == 8)
        #expect(MemoryLayout<Style>.size == 4)
    }

    @Test func setStringClipsAtMaxWidthAndEdge() {
        var b = Buffer(size: Size(width: 6, height: 2))
        b.setString("hello world", x: 1, y: 0)
        b.setString("abcdef", x: 0, y: 1, maxWidth: 3)
        #expect(b.textLines == [" hello", "abc   "])
    }

    @Test func wideCharactersTakeTwoCellsAndAreNeverSplit() {
        var b = Buffer(size: Size(width: 5, height: 2))
        let end = b.setString("中文字", x: 0, y: 0)
        b.setString("a😀", x: 2, y: 1)
        #expect(end == 5)  // the third wide character did not fit: a space stands in
        #expect(b.textLines == ["中文 ", "  a😀"])
        #expect(b[1, 0].isContinuation)
        #expect(b[4, 0].code == 0x20)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var b = Buffer(size: Size(width: 4, height: 1))
        b.setString("中文", x: 0, y: 0)
        b.set("x", x: 1, y: 0)
        #expect(b.textLines == [" x文"])
        b.set("y", x: 2, y: 0)
        #expect(b.textLines == [" xy "])
    }

    @Test func multiScalarGraphemesReadBack() {
        var b = Buffer(size: Size(width: 4, height: 1))
        b.setString("👍🏽é", x: 0, y: 0)
        #expect(b.textLines == ["👍🏽é "])
        #expect(b.symbol(x: 0, y: 0) == "👍🏽")
    }

    @Test func zeroSizeAndOneByOneBuffersIgnoreWritesOutside() {
        var z = Buffer(size: .zero)
        z.setString("abc", x: 0, y: 0)
        #expect(z.textLines == [])
        var one = Buffer(size: Size(width: 1, height: 1))
        one.setString("中", x: 0, y: 0)
        #expect(one.textLines == [" "])
        one.setString("ab", x: 0, y: 0)
        #expect(one.textLines == ["a"])
    }

    @Test func stylesAreKeptPerCell() {
        var b = Buffer(size: Size(width: 3, height: 1))
        b.setString("ab", x: 0, y: 0, style: .bold)
        b.setStyle(Style(foreground: .red), in: Rect(x: 1, y: 0, width: 2, height: 1))
        #expect(b.style(x: 0, y: 0) == .bold)
        #expect(b.style(x: 1, y: 0) == Style(foreground: .red, modifiers: .bold))
        #expect(b.style(x: 2, y: 0) == Style(foreground: .red))
    }

    @Test func buffersWithEqualGraphemesCompareEqual() {
        var a = Buffer(size: Size(width: 4, height: 1))
        var b = Buffer(size: Size(width: 4, height: 1))
        a.setString("x", x: 3, y: 0)
        a.setString("👍🏽", x: 0, y: 0)
        b.setString("👍🏽", x: 0, y: 0)
        b.setString("x", x: 3, y: 0)
        #expect(a == b)
        #expect(Buffer(lines: ["ab", "c"]).textLines == ["ab", "c "])
    }
}

@Suite struct CharacterWidthTests {
    @Test func widths() {
        #expect(CharacterWidth.of("a" as Character) == 1)
        #expect(CharacterWidth.of("中" as Character) == 2)
        #expect(CharacterWidth.of("😀" as Character) == 2)
        #expect(CharacterWidth.of("🇫🇷" as Character) == 2)
        #expect(CharacterWidth.of("é" as Character) == 1)
        #expect(CharacterWidth.of("─" as Character) == 1)
        #expect(CharacterWidth.of("한글") == 4)
    }
}

@Suite struct LayoutTests {
    @Test func splitsByFixedPercentageAndFill() {
        #expect(Split.lengths([.fixed(3), .percentage(50), .fill()], total: 20) == [3, 10, 7])
        #expect(Split.lengths([.fill(1), .fill(2)], total: 10) == [3, 7])
        #expect(Split.lengths([.fixed(8), .fixed(8)], total: 10) == [8, 2])
        #expect(Split.lengths([.fixed(3), .fill()], total: 0) == [0, 0])
    }

    @Test func splitsRectsInOrderWithSpacing() {
        let area = Rect(x: 2, y: 1, width: 10, height: 5)
        #expect(
            area.rows([.fixed(1), .fill(), .fixed(1)]) == [
                Rect(x: 2, y: 1, width: 10, height: 1), Rect(x: 2, y: 2, width: 10, height: 3),
                Rect(x: 2, y: 5, width: 10, height: 1),
            ])
        #expect(
            area.columns([.fixed(3), .fill()], spacing: 1) == [
                Rect(x: 2, y: 1, width: 3, height: 5), Rect(x: 6, y: 1, width: 6, height: 5),
            ])
    }
}
