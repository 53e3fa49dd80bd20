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
        #expect(runs == [CellRun(y: 0, x: 1, count: 2), CellRun(y: 0, x: 6, count: 1), CellRun(y: 1, x: 0, count: 1)])
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
}
