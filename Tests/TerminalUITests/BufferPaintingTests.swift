import TestSupport
import Testing

@testable import TerminalUI

/// `setString` stores ASCII byte by byte and takes the full path for anything else; these
/// tests hold it to the one-character-at-a-time rules of `set(_:x:y:style:limit:)`.
@Suite struct BufferPaintingTests {
    /// `setString` as it was before the ASCII path: one `Character` at a time through `set`.
    static func referenceSetString(
        _ buffer: inout Buffer, _ string: String, x: Int, y: Int, maxWidth: Int?, style: Style
    ) -> Int {
        let limit = maxWidth.map { x + max(0, $0) } ?? buffer.area.right
        var cx = x
        guard y >= buffer.area.y, y < buffer.area.bottom else { return x }
        for ch in string {
            if cx >= limit { break }
            if cx < buffer.area.x {
                cx += CharacterWidth.of(ch)
                continue
            }
            let used = buffer.set(ch, x: cx, y: y, style: style, limit: limit)
            if used == 0 && CharacterWidth.of(ch) > 0 { break }
            cx += used
            if used == 1 && CharacterWidth.of(ch) == 2 { break }
        }
        return cx
    }

    static let pieces = [
        "a", "bc", " ", "xyz", "中", "😀", "e\u{301}", "👍🏽", "\t", "\r\n", "\r", "\n", "\u{7F}", "é", "│",
        "\u{301}", "🇫🇷", "a\u{200D}", "文字", "\u{00AD}", "\u{200B}", "~",
    ]

    @Test func matchesOneCharacterAtATimeOnMixedText() {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<4_000 {
            let area = Rect(
                x: Int.random(in: 0...2, using: &rng), y: 0, width: Int.random(in: 0...7, using: &rng),
                height: 2)
            var fast = Buffer(area: area)
            func randomString() -> String {
                (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }
                    .joined()
            }
            // Something already on the row (wide characters to overwrite halves of).
            fast.setString(randomString(), x: area.x, y: 0)
            var slow = fast
            let text = randomString()
            let x = Int.random(in: -3...9, using: &rng)
            let y = Int.random(in: -1...2, using: &rng)
            let maxWidth = Bool.random(using: &rng) ? nil : Int.random(in: -1...8, using: &rng)
            let style = Bool.random(using: &rng) ? Style.plain : .bold
            let fastEnd = fast.setString(text, x: x, y: y, maxWidth: maxWidth, style: style)
            let slowEnd = Self.referenceSetString(&slow, text, x: x, y: y, maxWidth: maxWidth, style: style)
            #expect(
                fastEnd == slowEnd,
                "\(text.debugDescription) at \(x),\(y) max \(String(describing: maxWidth)) in \(area)")
            #expect(
                fast == slow,
                "\(text.debugDescription) at \(x),\(y) max \(String(describing: maxWidth)) in \(area)")
            #expect(fast.textLines == slow.textLines)
        }
    }

    /// Long ASCII runs are scanned eight bytes at a time and stored sixteen cells at a time:
    /// control bytes, DEL, non-ASCII and the area's edges fall at every offset within those.
    @Test func longRunsMatchOneCharacterAtATimeInEveryStyle() {
        var rng = SeededGenerator(seed: 7)
        let pieces = [
            "abcdefgh", "0123456", "xy", " ", "~", "\u{7F}", "\t", "\u{1F}", "é", "中", "e\u{301}", "😀",
        ]
        let styles = [
            Style.plain, .bold,
            Style(foreground: .red, background: .indexed(200), modifiers: [.bold, .underline]),
            Style(background: .brightBlue, modifiers: .reverse),
        ]
        for _ in 0..<1_000 {
            let area = Rect(
                x: Int.random(in: 0...3, using: &rng), y: 1, width: Int.random(in: 0...40, using: &rng),
                height: 1)
            var fast = Buffer(area: area)
            func randomString() -> String {
                (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                    Bool.random(using: &rng) ? "abcdefgh" : pieces.randomElement(using: &rng)!
                }.joined()
            }
            fast.setString(randomString(), x: area.x, y: 1)
            var slow = fast
            let text = randomString()
            let x = Int.random(in: -9...20, using: &rng)
            let maxWidth = Bool.random(using: &rng) ? nil : Int.random(in: 0...40, using: &rng)
            let style = styles.randomElement(using: &rng)!
            let fastEnd = fast.setString(text, x: x, y: 1, maxWidth: maxWidth, style: style)
            let slowEnd = Self.referenceSetString(&slow, text, x: x, y: 1, maxWidth: maxWidth, style: style)
            #expect(
                fastEnd == slowEnd, "\(text.debugDescription) at \(x) max \(String(describing: maxWidth))")
            #expect(fast == slow, "\(text.debugDescription) at \(x) max \(String(describing: maxWidth))")
        }
    }

    @Test func asciiNextToWideCharactersKeepsBoth() {
        var b = Buffer(size: Size(width: 8, height: 1))
        let end = b.setString("ab中cd文", x: 0, y: 0)
        #expect(end == 8)
        #expect(b.textLines == ["ab中cd文"])
        #expect(b[3, 0].isContinuation)
        #expect(b[7, 0].isContinuation)
    }

    @Test func asciiBeforeACombiningMarkStaysOneGrapheme() {
        var b = Buffer(size: Size(width: 4, height: 1))
        let end = b.setString("ae\u{301}b", x: 0, y: 0)
        #expect(end == 3)
        #expect(b.symbol(x: 1, y: 0) == "e\u{301}")
        #expect(b.textLines == ["ae\u{301}b "])
    }

    @Test func wideCharacterAfterAsciiAtTheEdgeBecomesASpace() {
        var b = Buffer(size: Size(width: 3, height: 1))
        let end = b.setString("ab中z", x: 0, y: 0)
        #expect(end == 3)
        #expect(b.textLines == ["ab "])
    }

    @Test func asciiOverTheHalvesOfWideCharactersBlanksTheOtherHalves() {
        var b = Buffer(size: Size(width: 6, height: 1))
        b.setString("中文字", x: 0, y: 0)
        b.setString("xy", x: 1, y: 0)
        #expect(b.textLines == [" xy 字"])
        b.setString("q", x: 4, y: 0)
        #expect(b.textLines == [" xy q "])
        #expect(!b[5, 0].isContinuation)
    }

    @Test func asciiLeftOfTheAreaIsSkippedColumnByColumn() {
        var b = Buffer(area: Rect(x: 2, y: 0, width: 4, height: 1))
        let end = b.setString("ab中cdefg", x: 0, y: 0)
        #expect(end == 6)
        #expect(b.textLines == ["中cd"])
    }

    @Test func substringsPaintLikeStrings() {
        var a = Buffer(size: Size(width: 6, height: 1))
        var b = a
        let text = "-ab中c-"
        a.setString(text.dropFirst().dropLast(), x: 0, y: 0)
        b.setString("ab中c", x: 0, y: 0)
        #expect(a == b)
    }
}
