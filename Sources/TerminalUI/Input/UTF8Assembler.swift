/// Turns the bytes a terminal sends, as they arrive, into Unicode scalars.
///
/// A read can end inside a character (a slow link, a paste cut at a buffer's end): its first
/// bytes wait here for the rest. A byte that can neither start nor continue a character (a stray
/// `0xFF`, a Latin-1 `é`), or a character left unfinished, is dropped — and the bytes after it
/// are read on, so no key typed after it is lost.
///
/// A plain value; the backend keeps one between reads.
struct UTF8Assembler {
    /// The first bytes of a character still arriving.
    private var pending: [UInt8] = []

    /// Takes the next byte; returns the scalar it completes, if it completes one.
    mutating func push(_ byte: UInt8) -> Unicode.Scalar? {
        if !pending.isEmpty, byte & 0xC0 != 0x80 { pending.removeAll() }  // not a continuation
        pending.append(byte)
        let length = Self.length(startingWith: pending[0])
        guard length > 0 else {
            pending.removeAll()
            return nil
        }
        guard pending.count == length else { return nil }
        defer { pending.removeAll() }
        // Overlong forms and surrogates fail validation, and are dropped.
        return String(validating: pending, as: UTF8.self)?.unicodeScalars.first
    }

    /// How many bytes a character starting with `byte` has; 0 when no character starts with it.
    static func length(startingWith byte: UInt8) -> Int {
        switch byte {
        case 0x00...0x7F: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }
}
