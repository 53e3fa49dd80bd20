/// One cell of a `Buffer`: a symbol and a style, eight bytes, no heap storage.
///
/// `code` is a Unicode scalar; `Cell.continuation` marks the second half of a wide
/// character; codes with `Cell.extendedFlag` index the owning buffer's table of
/// multi-scalar graphemes (emoji sequences, combining marks), so read symbols through
/// `Buffer.symbol(at:)`. A plain value: `Sendable`.
public struct Cell: Hashable, Sendable {
    public var code: UInt32
    public var style: Style

    public init(code: UInt32 = 0x20, style: Style = .plain) {
        self.code = code
        self.style = style
    }
    public init(_ scalar: Unicode.Scalar, style: Style = .plain) {
        self.init(code: scalar.value, style: style)
    }

    /// The code of the cell covered by the right half of a wide character.
    public static let continuation: UInt32 = 0
    /// Set on codes that index the buffer's grapheme table.
    public static let extendedFlag: UInt32 = 0x8000_0000
    public static let blank = Cell()

    public var isContinuation: Bool { code == Cell.continuation }
    public var isExtended: Bool { code & Cell.extendedFlag != 0 }
}

extension Cell {
    /// The style as one word: two cells have the same style exactly when these are equal
    /// (`Style` is four bytes without padding).
    @inline(__always)
    var styleWord: UInt32 { unsafeBitCast(style, to: UInt32.self) }
}
