/// Display widths of characters: 0 (combining, control), 1, or 2 (East Asian wide, emoji).
///
/// Pure functions, independent of the C locale, so tests and terminals agree.
public enum CharacterWidth {
    /// The number of cells `scalar` occupies.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        if v < 0xA0 { return 0 }
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return v == 0xAD ? 1 : 0
        default: break
        }
        if v == 0x200B { return 0 }
        if isWide(v) { return 2 }
        return 1
    }

    /// The number of cells a grapheme cluster occupies (never more than 2).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        guard iterator.next() != nil else { return of(first) }
        if first == "\r" { return 0 }  // CR LF: a control, as CR and LF alone are
        // Emoji sequences (VS16, ZWJ, flags, skin tones) are drawn as one wide glyph.
        if scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D })
            || (0x1F1E6...0x1F1FF).contains(first.value)
        {
            return 2
        }
        return max(of(first), 0) == 0 ? 1 : of(first)
    }

    /// The width of a string: the sum of its characters' widths.
    public static func of(_ string: some StringProtocol) -> Int {
        var w = 0
        for ch in string { w += of(ch) }
        return w
    }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1,
            0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA,
            0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
            0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C,
            0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
            0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
            0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF,
            0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            // Within the emoji blocks, only characters with default emoji presentation are wide.
            if v >= 0x1F300 && v <= 0x1FAFF {
                return Unicode.Scalar(v)?.properties.isEmojiPresentation ?? false
            }
            return true
        default:
            return false
        }
    }
}
