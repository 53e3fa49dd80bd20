import TerminalUITesting
import Testing

@testable import TerminalUI

/// The test terminal reads what ncurses writes for an xterm the way one shows it.
@Suite struct TerminalScreenTests {
    func screen(_ text: String, size: Size = Size(width: 10, height: 3)) -> [String] {
        var screen = TerminalScreen(size: size)
        screen.feed(Array(text.utf8))
        return screen.lines
    }

    @Test func cursorMovesAndErasing() {
        #expect(screen("\u{1B}[2;3Hab\u{1B}[1;1Hxy") == ["xy", "  ab", ""])
        #expect(screen("abcdef\u{1B}[1;3H\u{1B}[K") == ["ab", "", ""])
        #expect(screen("abc\r\nde\u{1B}[2J") == ["", "", ""])
        #expect(screen("abcdef\u{1B}[1;2H\u{1B}[2X") == ["a  def", "", ""])
        #expect(screen("a\u{1B}[3C\u{1B}[1Bb") == ["a", "    b", ""])
    }

    @Test func repeatsInsertsDeletesAndWideCharacters() {
        #expect(screen("─\u{1B}[4b") == ["─────", "", ""])
        #expect(screen("abcd\u{1B}[1;2H\u{1B}[2P") == ["ad", "", ""])
        #expect(screen("abcd\u{1B}[1;2H\u{1B}[1@") == ["a bcd", "", ""])
        #expect(screen("日本x") == ["日本x", "", ""])
    }

    @Test func lineDrawingScrollingAndTheAlternateScreen() {
        #expect(screen("\u{1B}(0lqk\u{1B}(Bq") == ["┌─┐q", "", ""])
        #expect(screen("1\r\n2\r\n3\r\n4") == ["2", "3", "4"])
        #expect(screen("old\u{1B}[?1049hnew") == ["   new", "", ""])
        #expect(screen("\u{1B}[1;31mred\u{1B}[0m") == ["red", "", ""])
    }

    @Test func aSequenceSplitAcrossReadsIsKeptForTheNext() {
        var screen = TerminalScreen(size: Size(width: 10, height: 2))
        screen.feed(Array("\u{1B}[2".utf8))
        screen.feed(Array(";4Hé".utf8).dropLast())
        screen.feed(Array("é".utf8).suffix(1))
        #expect(screen.lines == ["", "   é"])
    }
}
