/// A key press, decoded from the terminal or parsed from a name ("Enter", "Ctrl-C", "F5").
///
/// A plain value: `Sendable`, `Hashable` (usable as a dictionary key for key maps).
public enum Key: Hashable, Sendable {
    /// A printable character (including space).
    case character(Character)
    case enter, escape, tab, backTab, backspace, delete, insert
    case up, down, left, right, home, end, pageUp, pageDown
    /// F1…F63 (``functionKeys``).
    case function(Int)
    /// Ctrl plus a letter (stored lowercase: Ctrl-C is `.ctrl("c")`).
    case ctrl(Character)

    /// Parses a key name: a single character ("1", "r"), `Enter`, `Esc`, `Tab`, `BackTab`,
    /// `Space`, `Backspace`, `Delete`, `Insert`, `Up`, `Down`, `Left`, `Right`, `Home`, `End`,
    /// `PageUp`, `PageDown`, `F1`…`F63`, `Ctrl-X`. Case-insensitive for named keys; nil when unknown.
    public init?(name: String) {
        if name.count == 1, let ch = name.first {
            // A cluster of several scalars (é, 👍🏽) is a character; one scalar is what a terminal
            // sending it would mean, and a control character no key sends is no key.
            guard ch.unicodeScalars.count == 1 else {
                self = .character(ch)
                return
            }
            guard let key = Key.decode(scalar: ch.unicodeScalars.first!) else { return nil }
            self = key
            return
        }
        let lower = name.lowercased()
        switch lower {
        case "enter", "return": self = .enter
        case "esc", "escape": self = .escape
        case "tab": self = .tab
        case "backtab", "shift-tab": self = .backTab
        case "space": self = .character(" ")
        case "backspace": self = .backspace
        case "delete", "del": self = .delete
        case "insert", "ins": self = .insert
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        case "home": self = .home
        case "end": self = .end
        case "pageup", "pgup": self = .pageUp
        case "pagedown", "pgdn": self = .pageDown
        default:
            if lower.hasPrefix("ctrl-") || lower.hasPrefix("c-") {
                let rest = lower.drop(while: { $0 != "-" }).dropFirst()
                guard rest.count == 1, let c = rest.first, let ascii = c.asciiValue, c.isLetter else {
                    return nil
                }
                // What a terminal sends for it: Ctrl-M is Enter, Ctrl-I Tab, Ctrl-H Backspace.
                self = Key.decode(scalar: Unicode.Scalar(ascii - 0x60))!
            } else if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), Key.functionKeys.contains(n) {
                self = .function(n)
            } else {
                return nil
            }
        }
    }

    /// The function keys a terminal reports, as ncurses numbers them: F1–F12, and up to F63 for
    /// those with Shift, Ctrl or Alt held (Shift-F1 is F13 on an xterm).
    public static let functionKeys = 1...63

    /// The key's name, as `init(name:)` parses it and as hints show it.
    public var name: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "BackTab"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .insert: return "Insert"
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PageUp"
        case .pageDown: return "PageDown"
        case .function(let n): return "F\(n)"
        case .ctrl(let c): return "Ctrl-\(c.uppercased())"
        }
    }

    /// How far this key moves a selection or a scroll position, if it is a navigation key: ↑ or
    /// k one step back, ↓ or j one forward, PageUp and PageDown a `page`, Home and End all the
    /// way (`limit` steps). Nil for any other key.
    public func navigationStep(page: Int, limit: Int) -> Int? {
        switch self {
        case .up, .character("k"): -1
        case .down, .character("j"): 1
        case .pageUp: -page
        case .pageDown: page
        case .home: -limit
        case .end: limit
        default: nil
        }
    }

    /// Decodes a character the terminal sent (after ncurses' own key decoding): control
    /// bytes become Enter, Tab, Backspace, Esc or Ctrl-letters; printable characters stay.
    /// Nil for other control characters.
    public static func decode(scalar: Unicode.Scalar) -> Key? {
        switch scalar.value {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x08, 0x7F: return .backspace
        case 0x1B: return .escape
        case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(scalar.value + 0x60)!))
        case 0x00..<0x20: return nil
        case 0x80..<0xA0: return nil
        default: return .character(Character(scalar))
        }
    }
}

/// A mouse event: a button press or release, a click, or a wheel step, at a cell.
///
/// A plain value: `Sendable`.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case press, release, click, rightPress, wheelUp, wheelDown }
    public var kind: Kind
    public var position: Point
    public init(_ kind: Kind, at position: Point) {
        self.kind = kind
        self.position = position
    }
}

/// Anything the terminal reports: a key, a mouse event, or a new size.
///
/// A plain value: `Sendable`.
public enum Event: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
}
