import TestSupport
import Testing

@testable import TerminalUI

@MainActor
@Suite struct RendererTests {
    @Test func firstFrameDrawsEverythingThenOnlyChanges() {
        let backend = TestBackend(width: 10, height: 3)
        let renderer = Renderer(backend: backend)
        renderer.draw { $0.setString("hello", x: 0, y: 0) }
        #expect(backend.lastDrawnCellCount == 30)
        #expect(backend.trimmedTextLines == ["hello", "", ""])
        renderer.draw { $0.setString("hello", x: 0, y: 0) }
        #expect(backend.lastDrawnCellCount == 0)
        #expect(backend.flushCount == 2)
        renderer.draw { $0.setString("help", x: 0, y: 0) }
        #expect(backend.lastDrawnCellCount == 2)  // "p" and the blank where "o" was
        #expect(backend.trimmedTextLines == ["help", "", ""])
    }

    @Test func diffGivesRunsOfChangedCells() {
        var a = Buffer(size: Size(width: 8, height: 2))
        a.setString("abcdefgh", x: 0, y: 0)
        var b = a
        b.setString("XY", x: 1, y: 0)
        b.setString("Z", x: 6, y: 0)
        b.setString("Q", x: 0, y: 1)
        var runs: [CellRun] = []
        Renderer.diff(a, b, into: &runs)
        #expect(
            runs == [
                CellRun(y: 0, x: 1, count: 2), CellRun(y: 0, x: 6, count: 1), CellRun(y: 1, x: 0, count: 1),
            ])
    }

    @Test func aRunNeverStartsOnTheRightHalfOfAWideCharacter() {
        var a = Buffer(size: Size(width: 4, height: 1))
        a.setString("a中", x: 0, y: 0)
        var b = a
        b.setString("文", x: 1, y: 0)
        var runs: [CellRun] = []
        Renderer.diff(a, b, into: &runs)
        #expect(runs == [CellRun(y: 0, x: 1, count: 1)])
        var c = Buffer(size: Size(width: 4, height: 1))
        c.setString("ab", x: 0, y: 0)
        var d = c
        d.setString("中", x: 0, y: 0)
        runs = []
        Renderer.diff(c, d, into: &runs)
        #expect(runs == [CellRun(y: 0, x: 0, count: 2)])
    }

    /// `diff` as a plain cell-by-cell comparison: a cell changed when its symbol or style did;
    /// a run that starts on the right half of a wide character starts one cell earlier, and a
    /// run touching the one before it on the same row extends it.
    static func referenceDiff(_ old: Buffer, _ new: Buffer) -> [CellRun] {
        var runs: [CellRun] = []
        let area = new.area
        for y in area.top..<area.bottom {
            func changed(_ x: Int) -> Bool {
                old.symbol(x: x, y: y) != new.symbol(x: x, y: y)
                    || old.style(x: x, y: y) != new.style(x: x, y: y)
            }
            var x = area.left
            while x < area.right {
                guard changed(x) else {
                    x += 1
                    continue
                }
                let start = new[x, y].isContinuation && x > area.left ? x - 1 : x
                x += 1
                while x < area.right, changed(x) { x += 1 }
                if let last = runs.last, last.y == y, last.x + last.count >= start {
                    runs[runs.count - 1].count = x - last.x
                } else {
                    runs.append(CellRun(y: y, x: start, count: x - start))
                }
            }
        }
        return runs
    }

    @Test func diffMatchesACellByCellComparison() {
        var rng = SeededGenerator(seed: 11)
        let pieces = ["a", "bc", " ", "中", "😀", "e\u{301}", "👍🏽", "🇫🇷", "文字", "xyz"]
        let styles = [Style.plain, .bold, Style(foreground: .green), Style(background: .indexed(90))]
        for _ in 0..<2_000 {
            let area = Rect(
                x: Int.random(in: 0...2, using: &rng), y: Int.random(in: 0...2, using: &rng),
                width: Int.random(in: 0...12, using: &rng), height: Int.random(in: 0...3, using: &rng))
            func paint(_ buffer: inout Buffer) {
                for _ in 0..<Int.random(in: 0...6, using: &rng) {
                    let text = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                        pieces.randomElement(using: &rng)!
                    }
                    buffer.setString(
                        text.joined(), x: Int.random(in: (area.x - 2)...(area.x + 12), using: &rng),
                        y: Int.random(in: area.y...(area.y + 3), using: &rng),
                        style: styles.randomElement(using: &rng)!)
                }
            }
            var old = Buffer(area: area)
            paint(&old)
            // Half the time the new frame starts from the old one (same grapheme table), half
            // the time from blank (its own table: equal graphemes have different indexes).
            var new = Bool.random(using: &rng) ? old : Buffer(area: area)
            paint(&new)
            var runs: [CellRun] = []
            Renderer.diff(old, new, into: &runs)
            #expect(runs == Self.referenceDiff(old, new), "\(old)\n->\n\(new)")
        }
    }

    @Test func styleChangesAreChanges() {
        let backend = TestBackend(width: 3, height: 1)
        let renderer = Renderer(backend: backend)
        renderer.draw { $0.setString("abc", x: 0, y: 0) }
        renderer.draw { $0.setString("abc", x: 0, y: 0, style: .bold) }
        #expect(backend.lastDrawnCellCount == 3)
        #expect(backend.style(x: 1, y: 0) == .bold)
    }

    @Test func graphemeTablesAreComparedBySymbol() {
        let backend = TestBackend(width: 4, height: 1)
        let renderer = Renderer(backend: backend)
        renderer.draw { $0.setString("👍🏽", x: 0, y: 0) }
        renderer.draw { $0.setString("🇫🇷", x: 0, y: 0) }
        #expect(backend.lastDrawnCellCount == 1)
        #expect(backend.trimmedTextLines == ["🇫🇷"])
        renderer.draw { $0.setString("🇫🇷", x: 0, y: 0) }
        #expect(backend.lastDrawnCellCount == 0)
    }

    @Test func resizeRepaintsEverything() {
        let backend = TestBackend(width: 3, height: 1)
        let renderer = Renderer(backend: backend)
        renderer.draw { $0.setString("abc", x: 0, y: 0) }
        backend.resize(to: Size(width: 4, height: 2))
        renderer.draw { $0.setString("abc", x: 0, y: 0) }
        #expect(backend.lastDrawnCellCount == 8)
        #expect(backend.textLines == ["abc ", "    "])
    }

    @Test func zeroSizeFramesDrawNothing() {
        let backend = TestBackend(width: 0, height: 0)
        let renderer = Renderer(backend: backend)
        renderer.draw { $0.setString("abc", x: 0, y: 0) }
        #expect(backend.lastDrawnCellCount == 0)
        #expect(backend.textLines == [])
    }

    /// A narrow character over the left half of a wide one, then a grapheme of two scalars: the
    /// test screen shows what the frame holds, as a terminal would.
    @Test func theTestScreenMatchesTheFrameWhenANarrowCharacterReplacesAWideOne() {
        let backend = TestBackend(width: 6, height: 1)
        let renderer = Renderer(backend: backend)
        renderer.draw { $0.setString("中", x: 4, y: 0) }
        renderer.draw { $0.setString("ae\u{301}", x: 4, y: 0) }
        #expect(renderer.lastFrame.textLines == ["    ae\u{301}"])
        #expect(backend.textLines == renderer.lastFrame.textLines)
    }
}
