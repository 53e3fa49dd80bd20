/// Drops what is left of an escape sequence the terminal's key definitions do not name.
///
/// ncurses turns the sequences it knows (the arrows, the function keys) into keys; any other,
/// say Ctrl-→ (`ESC [1;5C`) where the terminfo entry lacks it, comes as its bytes: Esc, then each
/// byte as a key of its own (`1` would present a scenario). Bytes read together arrive within the
/// terminal's escape delay of each other, so an Esc followed in the same read by `[` (CSI) or `O`
/// (SS3) starts such a sequence: it is dropped through its final byte. An Esc that ends a read,
/// or is followed by anything else, is the Esc key (a key typed right after it stays a key).
///
/// A plain value; the backend keeps one, and flushes it (``flush()``) at the end of each read and
/// before each key ncurses decoded itself.
struct EscapeSequences {
    private enum State {
        case ground
        /// An Esc read, not yet told from a sequence's first byte.
        case escape
        /// In `ESC [`: parameter and intermediate bytes until a final byte (`@` to `~`).
        case controlSequence
        /// After `ESC O`: one more byte.
        case singleShift
    }

    private var state = State.ground

    /// What a byte read stands for: the Esc key (an Esc held back until the next byte told what
    /// it began), then the byte itself, unless it belongs to a sequence.
    struct Outcome {
        var escape = false
        var passes = false
    }

    /// Takes the next byte of a read.
    mutating func push(_ byte: UInt8) -> Outcome {
        switch state {
        case .ground:
            if byte == 0x1B {
                state = .escape
                return Outcome()
            }
            return Outcome(passes: true)
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .controlSequence
            case UInt8(ascii: "O"): state = .singleShift
            case 0x1B: return Outcome(escape: true)  // Esc, Esc: the first is a key, the second waits
            default:
                state = .ground
                return Outcome(escape: true, passes: true)
            }
            return Outcome()
        case .controlSequence:
            if (0x40...0x7E).contains(byte) { state = .ground }
            return Outcome()
        case .singleShift:
            state = .ground
            return Outcome()
        }
    }

    /// The read ended, or ncurses decoded a key itself: an Esc still held back is the Esc key
    /// (true). A sequence cut by the read's end is forgotten, and what follows it read as keys.
    mutating func flush() -> Bool {
        defer { state = .ground }
        return state == .escape
    }
}
