import TerminalUI

/// What a terminal would show for a program's output: a grid of cells that interprets the
/// control sequences ncurses writes for an xterm — cursor moves, erasing, inserting and deleting
/// characters and lines, scrolling regions, repeats, the alternate screen and the DEC line
/// drawing set. Colors and attributes are read and dropped: a test asks what a person would
/// read.
///
/// A screen diffing renderer writes only the cells that changed, so a sentence on screen is
/// rarely a run of the output bytes; `PseudoTerminal.readUntil(screenShows:timeout:)` asks this
/// instead.
/// Feed it bytes as they come (a sequence may be split across reads). Not `Sendable`: one owner.
public struct TerminalScreen {
    public private(set) var size: Size
    private var cells: [[Character]]
    private var row = 0
    private var column = 0
    /// The cursor is past the last column: the next character wraps first.
    private var pendingWrap = false
    private var top = 0
    private var bottom: Int
    private var saved = (row: 0, column: 0)
    private var lineDrawing = false
    private var last: Character = " "
    private var pending: [UInt8] = []

    public init(size: Size) {
        self.size = size
        cells = Array(repeating: Array(repeating: " ", count: max(1, size.width)), count: max(1, size.height))
        bottom = max(1, size.height) - 1
    }

    /// The rows as text, trailing spaces trimmed; a wide character's second cell is skipped.
    public var lines: [String] {
        cells.map { row in
            var text = String(row.filter { $0 != "\0" })
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// Changes the size (the program repaints after its SIGWINCH); what fits is kept.
    public mutating func resize(to newSize: Size) {
        var fresh = TerminalScreen(size: newSize)
        for (y, line) in cells.enumerated() where y < fresh.cells.count {
            for (x, cell) in line.enumerated() where x < fresh.cells[y].count { fresh.cells[y][x] = cell }
        }
        self = fresh
    }

    /// Interprets `bytes`, keeping an unfinished sequence or character for the next call.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
        var index = 0
        while index < pending.count {
            guard let used = step(at: index) else { break }
            index += used
        }
        pending.removeFirst(index)
    }

    /// Interprets what starts at `index`; the bytes it used, or nil when more are needed.
    private mutating func step(at index: Int) -> Int? {
        let byte = pending[index]
        switch byte {
        case 0x1B:
            return escape(at: index)
        case 0x0D:
            column = 0
            pendingWrap = false
        case 0x0A, 0x0B, 0x0C:
            lineFeed()
        case 0x08:
            column = max(0, column - 1)
            pendingWrap = false
        case 0x09:
            column = min(size.width - 1, (column / 8 + 1) * 8)
        case 0x0E:
            lineDrawing = true
        case 0x0F:
            lineDrawing = false
        case 0x00..<0x20, 0x7F:
            break
        default:
            return character(at: index)
        }
        return 1
    }

    private mutating func character(at index: Int) -> Int? {
        let lead = pending[index]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard index + length <= pending.count else { return nil }
        let text = String(decoding: pending[index..<index + length], as: UTF8.self)
        for character in text { put(character) }
        return length
    }

    private mutating func put(_ raw: Character) {
        let character = lineDrawing ? TerminalScreen.decGraphics[raw] ?? raw : raw
        let width = max(1, CharacterWidth.of(String(character)))
        if pendingWrap || column + width > size.width {
            column = 0
            lineFeed()
        }
        cells[row][column] = character
        if width == 2, column + 1 < size.width { cells[row][column + 1] = "\0" }
        last = character
        column += width
        if column >= size.width {
            column = size.width - 1
            pendingWrap = true
        }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if row == bottom { scroll(up: 1) } else { row = min(size.height - 1, row + 1) }
    }

    /// Moves the lines of the scrolling region up (`up` > 0) or down, blanking what comes in.
    private mutating func scroll(up count: Int, from first: Int? = nil) {
        let start = first ?? top
        guard start <= bottom else { return }
        let blank = Array(repeating: Character(" "), count: size.width)
        for _ in 0..<min(abs(count), bottom - start + 1) {
            if count > 0 {
                cells.remove(at: start)
                cells.insert(blank, at: bottom)
            } else {
                cells.remove(at: bottom)
                cells.insert(blank, at: start)
            }
        }
    }

    private mutating func escape(at index: Int) -> Int? {
        guard index + 1 < pending.count else { return nil }
        switch pending[index + 1] {
        case UInt8(ascii: "["):
            return controlSequence(at: index)
        case UInt8(ascii: "]"), UInt8(ascii: "P"):
            // An operating system command or a device control string: up to BEL or ESC \.
            var end = index + 2
            while end < pending.count {
                if pending[end] == 0x07 { return end + 1 - index }
                if pending[end] == 0x1B, end + 1 < pending.count { return end + 2 - index }
                end += 1
            }
            return nil
        case UInt8(ascii: "("), UInt8(ascii: ")"):
            guard index + 2 < pending.count else { return nil }
            if pending[index + 1] == UInt8(ascii: "(") {
                lineDrawing = pending[index + 2] == UInt8(ascii: "0")
            }
            return 3
        case UInt8(ascii: "7"):
            saved = (row, column)
        case UInt8(ascii: "8"):
            (row, column) = saved
            pendingWrap = false
        case UInt8(ascii: "D"):
            lineFeed()
        case UInt8(ascii: "E"):
            column = 0
            lineFeed()
        case UInt8(ascii: "M"):
            if row == top { scroll(up: -1) } else { row = max(0, row - 1) }
        case UInt8(ascii: "c"):
            self = TerminalScreen(size: size)
        default:
            break
        }
        return 2
    }

    private mutating func controlSequence(at index: Int) -> Int? {
        var end = index + 2
        while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
        guard end < pending.count else { return nil }
        let body = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
        let isPrivate = body.hasPrefix("?") || body.hasPrefix(">")
        let numbers = body.drop { $0 == "?" || $0 == ">" }.split(
            separator: ";", omittingEmptySubsequences: false
        )
        .map { Int($0) }
        func parameter(_ i: Int, _ fallback: Int = 1) -> Int {
            i < numbers.count ? numbers[i].flatMap { $0 == 0 ? fallback : $0 } ?? fallback : fallback
        }
        let final = Character(Unicode.Scalar(pending[end]))
        if isPrivate {
            if final == "h" || final == "l", numbers.contains(1049) || numbers.contains(47) {
                cells = TerminalScreen(size: size).cells
            }
            return end + 1 - index
        }
        perform(final, parameter)
        return end + 1 - index
    }

    private mutating func perform(_ final: Character, _ parameter: (Int, Int) -> Int) {
        let n = parameter(0, 1)
        pendingWrap = false
        switch final {
        case "H", "f":
            row = min(size.height - 1, parameter(0, 1) - 1)
            column = min(size.width - 1, parameter(1, 1) - 1)
        case "A": row = max(0, row - n)
        case "B", "e": row = min(size.height - 1, row + n)
        case "C", "a": column = min(size.width - 1, column + n)
        case "D": column = max(0, column - n)
        case "G", "`": column = min(size.width - 1, n - 1)
        case "d": row = min(size.height - 1, n - 1)
        case "J": erase(display: parameter(0, 0))
        case "K": erase(line: parameter(0, 0))
        case "X": blank(row, from: column, to: min(size.width, column + n))
        case "@":
            cells[row].insert(contentsOf: Array(repeating: " ", count: n), at: column)
            cells[row].removeLast(n)
        case "P":
            let count = min(n, size.width - column)
            cells[row].removeSubrange(column..<column + count)
            cells[row] += Array(repeating: " ", count: count)
        case "L": if (top...bottom).contains(row) { scroll(up: -n, from: row) }
        case "M": if (top...bottom).contains(row) { scroll(up: n, from: row) }
        case "S": scroll(up: n)
        case "T": scroll(up: -n)
        case "r":
            top = min(size.height - 1, parameter(0, 1) - 1)
            bottom = min(size.height - 1, parameter(1, size.height) - 1)
            (row, column) = (0, 0)
        case "b": for _ in 0..<n { put(last) }
        default: break  // SGR and the rest: nothing a reader sees
        }
    }

    private mutating func erase(display mode: Int) {
        switch mode {
        case 0:
            blank(row, from: column, to: size.width)
            for y in (row + 1)..<max(row + 1, size.height) { blank(y, from: 0, to: size.width) }
        case 1:
            for y in 0..<row { blank(y, from: 0, to: size.width) }
            blank(row, from: 0, to: column + 1)
        default:
            for y in 0..<size.height { blank(y, from: 0, to: size.width) }
        }
    }

    private mutating func erase(line mode: Int) {
        switch mode {
        case 0: blank(row, from: column, to: size.width)
        case 1: blank(row, from: 0, to: column + 1)
        default: blank(row, from: 0, to: size.width)
        }
    }

    private mutating func blank(_ y: Int, from start: Int, to end: Int) {
        guard y < size.height, start < end else { return }
        for x in start..<min(end, size.width) { cells[y][x] = " " }
    }

    /// The DEC special graphics set, as ncurses draws lines with it.
    static let decGraphics: [Character: Character] = [
        "j": "┘", "k": "┐", "l": "┌", "m": "└", "n": "┼", "q": "─", "t": "├", "u": "┤", "v": "┴", "w": "┬",
        "x": "│", "a": "▒", "`": "◆", "~": "·", "0": "█",
    ]
}
