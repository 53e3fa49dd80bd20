/// Text attributes: bold, dim, reverse, underline.
///
/// A one-byte option set: `Sendable`.
public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = Modifiers(rawValue: 1 << 0)
    public static let dim = Modifiers(rawValue: 1 << 1)
    public static let reverse = Modifiers(rawValue: 1 << 2)
    public static let underline = Modifiers(rawValue: 1 << 3)
}

/// How a cell looks: foreground, background and modifiers.
///
/// A four-byte value (no padding, so buffers compare byte-wise): `Sendable`.
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var modifiers: Modifiers
    private var reserved: UInt8 = 0

    public init(
        foreground: Color = .default, background: Color = .default, modifiers: Modifiers = []
    ) {
        self.foreground = foreground
        self.background = background
        self.modifiers = modifiers
    }

    public static let plain = Style()
    public static let bold = Style(modifiers: .bold)
    public static let dim = Style(modifiers: .dim)
    public static let reverse = Style(modifiers: .reverse)
    public static let underline = Style(modifiers: .underline)

    public var isBold: Bool { modifiers.contains(.bold) }
    public var isDim: Bool { modifiers.contains(.dim) }
    public var isReverse: Bool { modifiers.contains(.reverse) }
    public var isUnderline: Bool { modifiers.contains(.underline) }

    public func foreground(_ color: Color) -> Style { with { $0.foreground = color } }
    public func background(_ color: Color) -> Style { with { $0.background = color } }
    public func adding(_ m: Modifiers) -> Style { with { $0.modifiers.formUnion(m) } }
    /// Lays `other` over this style: its non-default colors and its modifiers win.
    public func patched(with other: Style) -> Style {
        var s = self
        if other.foreground != .default { s.foreground = other.foreground }
        if other.background != .default { s.background = other.background }
        s.modifiers.formUnion(other.modifiers)
        return s
    }
    /// The same style without colors (for monochrome output).
    public var withoutColors: Style { Style(modifiers: modifiers) }

    private func with(_ f: (inout Style) -> Void) -> Style {
        var s = self
        f(&s)
        return s
    }
}

extension Style {
    /// A terminal color: the terminal's default or one of the 256 indexed colors (0…254).
    ///
    /// A one-byte value: `Sendable`. Index 255 is not representable (it folds to 254).
    public struct Color: Hashable, Sendable {
        /// 0 is the terminal default; n is indexed color n - 1.
        public let raw: UInt8
        private init(raw: UInt8) { self.raw = raw }

        public static let `default` = Color(raw: 0)
        public static func indexed(_ index: UInt8) -> Color { Color(raw: index == 255 ? 255 : index + 1) }
        public static let black = indexed(0)
        public static let red = indexed(1)
        public static let green = indexed(2)
        public static let yellow = indexed(3)
        public static let blue = indexed(4)
        public static let magenta = indexed(5)
        public static let cyan = indexed(6)
        public static let white = indexed(7)
        public static let gray = indexed(8)
        public static let brightRed = indexed(9)
        public static let brightGreen = indexed(10)
        public static let brightYellow = indexed(11)
        public static let brightBlue = indexed(12)
        public static let brightMagenta = indexed(13)
        public static let brightCyan = indexed(14)
        public static let brightWhite = indexed(15)

        /// The indexed color, or nil for the terminal default.
        public var index: Int? { raw == 0 ? nil : Int(raw) - 1 }
    }
}
