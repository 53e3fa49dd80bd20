import CNcurses

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The input side of the terminal backend: keys, mouse, resizes and the signals the run loop
/// watches, decoded from ncurses and the self-pipe.
extension NcursesBackend {
    /// Keys, mouse events and resizes read since the last call. Text is read a byte at a time
    /// and assembled here (``UTF8Assembler``), so a character split between two reads arrives
    /// whole and a stray byte costs nothing after it; an escape sequence ncurses did not know is
    /// dropped (``EscapeSequences``).
    public func readEvents() -> [Event] {
        NcursesBackend.assertOnMainThread()
        var events: [Event] = []
        while true {
            let code = cncurses_getch()
            guard code >= 0 else { break }  // ERR: nothing more to read
            if code > 0xFF {
                // A key ncurses decoded itself: an Esc held back before it is the Esc key.
                if sequences.flush() { events.append(.key(.escape)) }
                if code == KEY_RESIZE {
                    needsUpdate = true
                    size = Size(width: Int(cncurses_cols()), height: Int(cncurses_lines()))
                    events.append(.resize(size))
                } else if code == KEY_MOUSE {
                    var x: Int32 = 0
                    var y: Int32 = 0
                    var kind: Int32 = 0
                    if cncurses_getmouse(&x, &y, &kind) == cncurses_ok(),
                        let k = NcursesBackend.mouseKind(kind)
                    {
                        events.append(.mouse(MouseEvent(k, at: Point(x: Int(x), y: Int(y)))))
                    }
                } else if let key = NcursesBackend.key(forKeyCode: code) {
                    events.append(.key(key))
                }
            } else {
                let byte = sequences.push(UInt8(code))
                if byte.escape { events.append(.key(.escape)) }
                if byte.passes, let scalar = text.push(UInt8(code)), let key = Key.decode(scalar: scalar) {
                    events.append(.key(key))
                }
            }
        }
        if sequences.flush() { events.append(.key(.escape)) }
        return events
    }

    nonisolated static func mouseKind(_ k: Int32) -> MouseEvent.Kind? {
        switch k {
        case 1: return .press
        case 2: return .release
        case 3: return .click
        case 4: return .wheelUp
        case 5: return .wheelDown
        case 6: return .rightPress
        default: return nil
        }
    }

    /// Maps an ncurses `KEY_*` code to a key.
    nonisolated static func key(forKeyCode code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_NPAGE: return .pageDown
        case KEY_PPAGE: return .pageUp
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_IC: return .insert
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        default:
            let number = Int(code - KEY_F0)
            return Key.functionKeys.contains(number) ? .function(number) : nil
        }
    }

    /// Reads the signals delivered since the last call (from the self-pipe).
    public func readSignals() -> [Int32] {
        var out: [Int32] = []
        var byte: UInt8 = 0
        while read(signalFileDescriptor, &byte, 1) == 1 { out.append(Int32(byte)) }
        return out
    }

    public func updateSize() -> Size {
        NcursesBackend.assertOnMainThread()
        var rows: Int32 = 0
        var cols: Int32 = 0
        if cncurses_window_size(STDOUT_FILENO, &rows, &cols) == 0, rows > 0, cols > 0 {
            resizeterm(rows, cols)
            needsUpdate = true
        }
        size = Size(width: Int(cncurses_cols()), height: Int(cncurses_lines()))
        return size
    }
}
