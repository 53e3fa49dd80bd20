/// A grid of cells covering `area`: what widgets paint and the renderer diffs.
///
/// Storage is one contiguous array in row-major order plus a small table for multi-scalar
/// graphemes, so painting allocates nothing per cell and two buffers compare row by row
/// with `memcmp`. Wide characters occupy two cells (the second is `Cell.continuation`)
/// and are never split: a wide character that does not fit is replaced by a space.
/// A value type (copy-on-write): `Sendable`, use from any one thread at a time.
public struct Buffer: Sendable {
    /// The area this buffer covers, in terminal coordinates.
    public private(set) var area: Rect
    /// The cells, row-major: the cell at (x, y) is `cells[(y - area.y) * area.width + x - area.x]`.
    public internal(set) var cells: ContiguousArray<Cell>
    /// Multi-scalar graphemes referenced by extended cell codes.
    internal var graphemes: [String] = []

    public init(area: Rect) {
        self.area = area
        self.cells = ContiguousArray(repeating: .blank, count: area.width * area.height)
    }
    public init(size: Size) { self.init(area: Rect(size: size)) }

    /// A buffer holding `lines` (each padded or clipped to the widest line), for expectations.
    public init(lines: [String]) {
        let width = lines.map { CharacterWidth.of($0) }.max() ?? 0
        self.init(area: Rect(x: 0, y: 0, width: width, height: lines.count))
        for (y, line) in lines.enumerated() { setString(line, x: 0, y: y) }
    }

    public var width: Int { area.width }
    public var height: Int { area.height }

    /// Index of (x, y) in `cells`, or nil outside `area`.
    @inline(__always)
    public func index(x: Int, y: Int) -> Int? {
        guard x >= area.x, y >= area.y, x < area.right, y < area.bottom else { return nil }
        return (y - area.y) * area.width + (x - area.x)
    }

    /// The cell at (x, y); a blank cell outside `area`. Setting outside `area` is ignored.
    public subscript(x: Int, y: Int) -> Cell {
        get { index(x: x, y: y).map { cells[$0] } ?? .blank }
        set { if let i = index(x: x, y: y) { cells[i] = newValue } }
    }

    /// The text drawn in the cell at (x, y): "" for the right half of a wide character.
    public func symbol(x: Int, y: Int) -> String {
        guard let i = index(x: x, y: y) else { return "" }
        return symbol(of: cells[i])
    }

    internal func symbol(of cell: Cell) -> String {
        if cell.isContinuation { return "" }
        if cell.isExtended { return graphemes[Int(cell.code & ~Cell.extendedFlag)] }
        return Unicode.Scalar(cell.code).map { String(Character($0)) } ?? " "
    }

    /// The style of the cell at (x, y).
    public func style(x: Int, y: Int) -> Style { self[x, y].style }

    /// Blanks every cell and forgets the grapheme table; keeps the storage.
    public mutating func reset() {
        cells.withUnsafeMutableBufferPointer { $0.update(repeating: .blank) }
        graphemes.removeAll(keepingCapacity: true)
    }

    /// Changes the area, blanking all cells.
    public mutating func resize(to area: Rect) {
        if area.area != cells.count {
            cells = ContiguousArray(repeating: .blank, count: area.width * area.height)
            graphemes.removeAll(keepingCapacity: true)
        } else {
            reset()
        }
        self.area = area
    }

    // MARK: Painting

    /// Draws one character at (x, y) if it fits before `limit` (one past the last column
    /// allowed; defaults to the buffer's right edge). Returns the number of columns used:
    /// 0 when nothing was drawn, 1 for a space replacing a wide character that would not fit.
    @discardableResult
    public mutating func set(
        _ character: Character, x: Int, y: Int, style: Style = .plain, limit: Int? = nil
    ) -> Int {
        let right = min(limit ?? area.right, area.right)
        guard y >= area.y, y < area.bottom, x >= area.x, x < right else { return 0 }
        return put(character, width: CharacterWidth.of(character), x: x, y: y, style: style, right: right)
    }

    /// `set(_:x:y:style:limit:)` once the position is known to be inside the area and before
    /// `right`, with the character's width computed by the caller.
    private mutating func put(_ character: Character, width: Int, x: Int, y: Int, style: Style, right: Int)
        -> Int
    {
        var w = width
        if w == 0 { return 0 }
        var code: UInt32
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        let first = iterator.next()!
        if iterator.next() == nil {
            code = first.value
        } else {
            code = Cell.extendedFlag | UInt32(graphemes.count)
            graphemes.append(String(character))
        }
        if w == 2 && x + 1 >= right {
            // Never split a wide character: draw a space instead.
            w = 1
            code = 0x20
        }
        let i = (y - area.y) * area.width + (x - area.x)
        let afterIsInside = x + w < area.right
        let hasLeft = x > area.x
        cells.withUnsafeMutableBufferPointer { cells in
            // Overwriting the right half of a wide character blanks its left half.
            if cells[i].isContinuation, hasLeft { cells[i - 1].code = 0x20 }
            cells[i] = Cell(code: code, style: style)
            if w == 2 { cells[i + 1] = Cell(code: Cell.continuation, style: style) }
            // A continuation left orphaned after what we drew becomes a space.
            if afterIsInside, cells[i + w].isContinuation { cells[i + w].code = 0x20 }
        }
        return w
    }

    /// Draws `string` from (x, y) on one row, clipped at `maxWidth` columns and at the buffer's
    /// edge. Control characters are skipped. Returns the column after the last cell drawn.
    @discardableResult
    public mutating func setString(
        _ string: some StringProtocol, x: Int, y: Int, maxWidth: Int? = nil, style: Style = .plain
    ) -> Int {
        if let string = string as? String {
            return setString(string, x: x, y: y, maxWidth: maxWidth, style: style)
        }
        return paint(Substring(string), x: x, y: y, maxWidth: maxWidth, style: style)
    }

    /// Draws `string` from (x, y) on one row, clipped at `maxWidth` columns and at the buffer's
    /// edge. Control characters are skipped. Returns the column after the last cell drawn.
    @discardableResult
    public mutating func setString(
        _ string: String, x: Int, y: Int, maxWidth: Int? = nil, style: Style = .plain
    ) -> Int {
        paint(string[...], x: x, y: y, maxWidth: maxWidth, style: style)
    }

    /// What `setString` does: ASCII is stored byte by byte (a printable byte followed by another
    /// ASCII byte, or by nothing, is a whole grapheme one column wide); any other character
    /// takes the full path, one grapheme at a time, and the ASCII path resumes after it.
    private mutating func paint(_ string: Substring, x: Int, y: Int, maxWidth: Int?, style: Style) -> Int {
        let limit = maxWidth.map { x + max(0, $0) } ?? area.right
        guard y >= area.y, y < area.bottom else { return x }
        let right = min(limit, area.right)
        var cx = x
        var contiguous = string  // `withUTF8` makes a copy contiguous first when it is not
        contiguous.withUTF8 { bytes in
            let n = bytes.count
            var i = 0
            while i < n, cx < limit {
                // The ASCII run starting at i: printable bytes (0x20...0x7E), without the last one
                // when a non-ASCII byte follows it (it may start a grapheme, e.g. "e\u{301}").
                var end = Buffer.printableASCIIEnd(bytes, from: i)
                if end < n, end > i, bytes[end] >= 0x80 { end -= 1 }
                if end > i {
                    cx = paintASCII(
                        UnsafeBufferPointer(rebasing: bytes[i..<end]), x: cx, y: y, style: style, right: right
                    )
                    if cx >= right { break }
                    i = end
                    continue
                }
                let b = bytes[i]
                if (b < 0x20 && b != 0x0D) || b == 0x7F {
                    // A control byte, zero columns (CR takes the full path: CR LF is one grapheme).
                    i += 1
                    continue
                }
                // One grapheme through the full path.
                let ch = string[string.utf8.index(string.startIndex, offsetBy: i)]
                i += ch.utf8.count
                let w = CharacterWidth.of(ch)
                if cx < area.x {
                    cx += w
                    continue
                }
                let used = cx < right ? put(ch, width: w, x: cx, y: y, style: style, right: right) : 0
                if used == 0 && w > 0 { break }
                cx += used
                if used == 1 && w == 2 { break }
            }
        }
        return cx
    }

    /// Stores printable ASCII bytes from column `x` on row `y` (columns before the area are
    /// skipped, the run stops at `right`). Returns the column after the last byte.
    private mutating func paintASCII(
        _ bytes: UnsafeBufferPointer<UInt8>, x: Int, y: Int, style: Style, right: Int
    ) -> Int {
        let first = max(x, area.x)
        let end = min(x + bytes.count, right)
        guard first < end else { return min(x + bytes.count, max(x, right)) }
        let row = (y - area.y) * area.width - area.x
        let left = area.x
        let areaRight = area.right
        cells.withUnsafeMutableBufferPointer { cells in
            if cells[row + first].isContinuation, first > left { cells[row + first - 1].code = 0x20 }
            let source = bytes.baseAddress! + (first - x)
            let target = cells.baseAddress! + (row + first)
            let count = end - first
            #if _endian(little)
            // A cell is its code's four bytes, then its style's: one 64-bit word, made here
            // sixteen at a time by widening sixteen bytes.
            let styleBits = UInt64(Cell(code: 0, style: style).styleWord) << 32
            let bytes = UnsafeRawPointer(source)
            let words = UnsafeMutableRawPointer(target)
            var k = 0
            while k &+ 16 <= count {
                let codes = SIMD16<UInt64>(
                    truncatingIfNeeded: bytes.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self))
                words.storeBytes(
                    of: codes | SIMD16(repeating: styleBits), toByteOffset: k &* 8, as: SIMD16<UInt64>.self)
                k &+= 16
            }
            while k < count {
                words.storeBytes(of: UInt64(source[k]) | styleBits, toByteOffset: k &* 8, as: UInt64.self)
                k &+= 1
            }
            #else
            for k in 0..<count { target[k] = Cell(code: UInt32(source[k]), style: style) }
            #endif
            if end < areaRight, cells[row + end].isContinuation { cells[row + end].code = 0x20 }
        }
        return end
    }

    /// The index of the first byte at or after `start` that is not printable ASCII
    /// (0x20...0x7E), or `bytes.count`. Eight bytes at a time while they all are.
    @inline(__always)
    private static func printableASCIIEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let n = bytes.count
        var end = start
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        let high: UInt64 = 0x8080_8080_8080_8080
        while end &+ 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)
            // With no high bit set (all bytes below 0x80), adding 0x60 to a byte sets its high
            // bit exactly when it is at least 0x20, and adding 1 exactly when it is 0x7F; no
            // byte carries into the next.
            guard w & high == 0, (w &+ 0x6060_6060_6060_6060) & high == high,
                (w &+ 0x0101_0101_0101_0101) & high == 0
            else { break }
            end &+= 8
        }
        while end < n, bytes[end] &- 0x20 < 0x5F { end &+= 1 }
        return end
    }

    /// Draws a styled line (its spans laid over `base`), clipped like `setString`.
    @discardableResult
    public mutating func setLine(
        _ line: Line, x: Int, y: Int, maxWidth: Int? = nil, base: Style = .plain
    ) -> Int {
        let limit = maxWidth.map { x + max(0, $0) } ?? area.right
        var cx = x
        for span in line.spans {
            if cx >= limit { break }
            cx = setString(
                span.text, x: cx, y: y, maxWidth: limit - cx, style: base.patched(with: span.style))
        }
        return cx
    }

    /// Lays `style` over every cell of `rect` (colors that are not default and modifiers win).
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.top..<r.bottom {
            let row = (y - area.y) * area.width - area.x
            for x in r.left..<r.right { cells[row + x].style = cells[row + x].style.patched(with: style) }
        }
    }

    /// Replaces every cell of `rect` with `character` (one column wide) in `style`.
    public mutating func fill(_ rect: Rect, with character: Unicode.Scalar = " ", style: Style = .plain) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        let cell = Cell(character, style: style)
        for y in r.top..<r.bottom {
            let row = (y - area.y) * area.width - area.x
            if r.left > area.x, cells[row + r.left].isContinuation { cells[row + r.left - 1].code = 0x20 }
            for x in r.left..<r.right { cells[row + x] = cell }
            if r.right < area.right, cells[row + r.right].isContinuation { cells[row + r.right].code = 0x20 }
        }
    }

    // MARK: Reading back

    /// Row `y` (terminal coordinates) as text, full width.
    public func text(row y: Int) -> String {
        guard y >= area.y, y < area.bottom else { return "" }
        var s = ""
        s.reserveCapacity(area.width)
        let row = (y - area.y) * area.width
        for i in row..<(row + area.width) {
            let c = cells[i]
            if c.isContinuation { continue }
            if c.isExtended {
                s += graphemes[Int(c.code & ~Cell.extendedFlag)]
            } else if let u = Unicode.Scalar(c.code) {
                s.unicodeScalars.append(u)
            }
        }
        return s
    }

    /// Every row as text, full width (trailing spaces kept).
    public var textLines: [String] { (area.top..<area.bottom).map { text(row: $0) } }

    /// Every row as text with trailing spaces removed.
    public var trimmedTextLines: [String] {
        textLines.map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
    }
}

extension Buffer: Equatable {
    /// Two buffers are equal when they cover the same area with the same symbols and styles.
    public static func == (a: Buffer, b: Buffer) -> Bool {
        guard a.area == b.area else { return false }
        for i in a.cells.indices where a.cells[i] != b.cells[i] {
            let x = a.cells[i]
            let y = b.cells[i]
            guard x.isExtended, y.isExtended, x.style == y.style, a.symbol(of: x) == b.symbol(of: y) else {
                return false
            }
        }
        return true
    }
}

extension Buffer: CustomStringConvertible {
    public var description: String { textLines.map { "\"\($0)\"" }.joined(separator: "\n") }
}
