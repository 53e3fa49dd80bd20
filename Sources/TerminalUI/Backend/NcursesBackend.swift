import CNcurses

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal backend: draws through ncursesw and reads keys, mouse and resizes.
///
/// The only user of `CNcurses`. Creating it enters full-screen mode: it saves the terminal
/// state and installs the crash handlers (SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS) that
/// restore it, then hand the crash to the handler they replaced (the Swift runtime's
/// backtracer) and end the process by the signal; and it routes SIGINT, SIGTERM, SIGHUP,
/// SIGWINCH, SIGTSTP and SIGCONT to a self-pipe that the run loop watches. `suspend()` gives the
/// terminal back and stops the process, as Ctrl-Z does; `shutdown()` restores the terminal
/// (idempotent; `Application.run` calls it).
/// At most one instance at a time. Main-actor isolated, and every ncurses call must also be
/// on the main OS thread (ncurses is not thread-safe and keeps per-thread state): park the
/// main thread with `Application.runMain()`, not `dispatchMain()`, which lets worker threads
/// drain the main queue on Linux. Debug builds check this on every call that reaches ncurses.
@MainActor
public final class NcursesBackend: InteractiveBackend {
    /// How the terminal is set up.
    public struct Options: Sendable {
        public var colors: Bool
        public var mouse: Bool
        /// Milliseconds ncurses waits after Esc for the rest of an escape sequence.
        public var escapeDelay: Int
        public init(colors: Bool = true, mouse: Bool = true, escapeDelay: Int = 25) {
            self.colors = colors
            self.mouse = mouse
            self.escapeDelay = escapeDelay
        }
    }

    /// Why the terminal could not be opened.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Signals the run loop handles (delivered through `readSignals()`): SIGTSTP only where job
    /// control is on (it was not ignored when the program started).
    public static let watchedSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]
    /// What the crash handler writes: reset attributes, mouse off, cursor and keypad keys back to
    /// normal (arrows as `ESC [ A` again), cursor on, leave the alternate screen.
    static let resetSequence =
        "\u{1B}[0m\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\u{1B}[?1l\u{1B}>\u{1B}[?25h\u{1B}[?1049l"

    public internal(set) var size: Size
    /// True when the locale could be set to UTF-8 (otherwise use ASCII line drawing).
    public let isUnicode: Bool
    public let inputFileDescriptor: Int32 = STDIN_FILENO
    /// The read end of the signal self-pipe.
    public let signalFileDescriptor: Int32
    private let options: Options
    /// Whether Ctrl-Z and SIGTSTP stop the program: SIGTSTP was not ignored when it started.
    private let jobControl: Bool
    private var colorsEnabled = false
    private var pairs: [UInt16: Int16] = [:]
    private var nextPair: Int32 = 1
    private var maxPairs: Int32 = 0
    private var colorCount: Int32 = 0
    private var isOpen = false
    private var wide: [wchar_t] = []
    private var narrow: [CChar] = []
    /// The `chtype`s of one ASCII segment, as wide as the widest buffer drawn.
    private var characters: [chtype] = []
    /// The style whose `chtype` bits were computed last, and those bits (nil: pair above 255).
    private var lastCharacterBits: (style: Style, bits: chtype?)?
    /// Something was drawn, cleared or moved since the last `doupdate`.
    var needsUpdate = true
    /// The text input's bytes, assembled into characters across reads.
    var text = UTF8Assembler()
    var sequences = EscapeSequences()
    /// Where `setCursor` put the cursor (nil: hidden); drawing moves ncurses' cursor, so
    /// `flush()` puts it back before the update.
    private var cursor: Point?

    /// Enters full-screen mode on the process's terminal.
    /// - Throws: `StartError` when standard input/output are not a terminal or ncurses fails.
    public init(options: Options = Options()) throws {
        guard Terminal.isInteractive else { throw StartError(description: "not a terminal") }
        NcursesBackend.assertOnMainThread()
        self.options = options
        isUnicode = cncurses_setup_locale() != 0
        cncurses_prepare_restore(STDOUT_FILENO, NcursesBackend.resetSequence)
        cncurses_install_crash_handlers()
        signalFileDescriptor = cncurses_signal_pipe_open()
        jobControl = cncurses_stop_signal_ignored() == 0
        // Installed before newterm, so ncurses does not install its own handlers for these (its
        // SIGTSTP handler would draw from the signal handler, on whatever the thread was doing).
        for s in NcursesBackend.watchedSignals where s != SIGTSTP || jobControl {
            _ = cncurses_signal_pipe_watch(s)
        }
        let term = Terminal.environment["TERM"] ?? ""
        guard let screen = cncurses_newterm_stdio() else {
            cncurses_disarm_restore()
            throw StartError(description: "ncurses could not open the terminal (TERM=\(term))")
        }
        guard cncurses_can_address_cursor() != 0 else {
            cncurses_close_screen(screen)
            cncurses_disarm_restore()
            throw StartError(
                description:
                    "the terminal cannot move its cursor (TERM=\(term)): full screen needs one that can")
        }
        isOpen = true
        raw()
        noecho()
        nonl()
        _ = cncurses_keypad(1)
        _ = cncurses_nodelay(1)
        _ = cncurses_set_escdelay(Int32(options.escapeDelay))
        curs_set(0)
        if options.mouse { _ = cncurses_enable_mouse() }
        size = Size(width: Int(cncurses_cols()), height: Int(cncurses_lines()))
        if options.colors { enableColors() }
    }

    /// Draws on the ncurses screen the caller has already opened (with `newterm`/`set_term`)
    /// instead of the process's terminal — for measuring the renderer against another output,
    /// or embedding. Touches nothing else: no terminal check, no signal or crash handlers, no
    /// input; ``shutdown()`` leaves the screen to its owner.
    public init(adoptingCurrentScreen size: Size, options: Options = Options(colors: false, mouse: false)) {
        self.options = options
        self.size = size
        isUnicode = cncurses_setup_locale() != 0
        signalFileDescriptor = -1
        jobControl = false
        if options.colors { enableColors() }
    }

    /// Starts colors with the terminal's defaults as pair 0, where the terminal has colors.
    private func enableColors() {
        guard has_colors() else { return }
        start_color()
        use_default_colors()
        colorsEnabled = true
        maxPairs = cncurses_color_pairs()
        colorCount = cncurses_colors()
    }

    /// Draws each run as segments of one style. Printable ASCII (nearly every cell) becomes
    /// `chtype`s — character, attributes and color pair in one word — stored with one
    /// `mvaddchnstr` per segment; ncurses then only copies them into its window. Anything else
    /// goes through `mvaddnwstr` after `attr_set` (set only when the style changes), as does
    /// ASCII in a color pair above 255, which a `chtype` cannot hold.
    public func draw(_ runs: [CellRun], from buffer: Buffer) {
        NcursesBackend.assertOnMainThread()
        guard !runs.isEmpty else { return }
        needsUpdate = true
        var current: Style?
        let area = buffer.area
        if characters.count < area.width { characters = Array(repeating: 0, count: area.width) }
        buffer.cells.withUnsafeBufferPointer { cells in
            for run in runs {
                let row = (run.y - area.y) * area.width - area.x
                let end = run.x + run.count
                var x = run.x
                while x < end {
                    let cell = cells[row + x]
                    if cell.isContinuation {
                        x += 1
                        continue
                    }
                    let style = cell.style
                    let start = x
                    if NcursesBackend.isNarrow(cell.code), let bits = characterBits(style) {
                        let word = cell.styleWord
                        let segment = cells.baseAddress! + (row + start)
                        let limit = end - start
                        characters.withUnsafeMutableBufferPointer { out in
                            let out = out.baseAddress!
                            var n = 0
                            while n < limit {
                                let c = segment[n]
                                guard c.styleWord == word, NcursesBackend.isNarrow(c.code) else {
                                    break
                                }
                                out[n] = chtype(c.code) | bits
                                n &+= 1
                            }
                            _ = cncurses_mvaddchnstr(Int32(run.y), Int32(start), out, Int32(n))
                            x = start + n
                        }
                        continue
                    }
                    if style != current {
                        _ = cncurses_attr_set(attributes(style), pair(for: style))
                        current = style
                    }
                    if NcursesBackend.isNarrow(cell.code) {
                        narrow.removeAll(keepingCapacity: true)
                        while x < end, cells[row + x].style == style,
                            NcursesBackend.isNarrow(cells[row + x].code)
                        {
                            narrow.append(CChar(truncatingIfNeeded: cells[row + x].code))
                            x += 1
                        }
                        narrow.withUnsafeBufferPointer { p in
                            _ = cncurses_mvaddnstr(Int32(run.y), Int32(start), p.baseAddress, Int32(p.count))
                        }
                    } else {
                        wide.removeAll(keepingCapacity: true)
                        while x < end, cells[row + x].style == style,
                            !NcursesBackend.isNarrow(cells[row + x].code)
                        {
                            appendWide(cells[row + x], of: buffer)
                            x += 1
                        }
                        wide.withUnsafeBufferPointer { p in
                            _ = cncurses_mvaddnwstr(Int32(run.y), Int32(start), p.baseAddress, Int32(p.count))
                        }
                    }
                }
            }
        }
    }

    /// The attribute and color-pair bits of a `chtype` in `style`, or nil when its color pair
    /// does not fit in one (above 255). The last answer is kept: runs rarely change style.
    private func characterBits(_ style: Style) -> chtype? {
        if let last = lastCharacterBits, last.style == style { return last.bits }
        let pair = pair(for: style)
        let bits: chtype? = pair <= 255 ? attributes(style) | cncurses_color_pair(pair) : nil
        lastCharacterBits = (style, bits)
        return bits
    }

    /// Printable ASCII: drawn through ncurses' narrow path.
    @inline(__always)
    private static func isNarrow(_ code: UInt32) -> Bool { code &- 0x20 < 0x5F }

    /// Appends a cell's characters to `wide`: nothing for the right half of a wide character,
    /// the base and its zero-width marks for a grapheme (ncurses joins them into one cell).
    private func appendWide(_ cell: Cell, of buffer: Buffer) {
        if cell.isContinuation { return }
        guard cell.isExtended else {
            wide.append(wchar_t(bitPattern: cell.code))
            return
        }
        var first = true
        for u in buffer.symbol(of: cell).unicodeScalars where first || CharacterWidth.of(u) == 0 {
            wide.append(wchar_t(bitPattern: u.value))
            first = false
        }
    }

    private func attributes(_ style: Style) -> attr_t {
        var a = cncurses_a_normal()
        if style.isBold { a |= cncurses_a_bold() }
        if style.isDim { a |= cncurses_a_dim() }
        if style.isReverse { a |= cncurses_a_reverse() }
        if style.isUnderline { a |= cncurses_a_underline() }
        return a
    }

    private func pair(for style: Style) -> Int16 {
        guard colorsEnabled, style.foreground != .default || style.background != .default else { return 0 }
        let key = UInt16(style.foreground.raw) << 8 | UInt16(style.background.raw)
        if let p = pairs[key] { return p }
        guard nextPair < maxPairs, nextPair < Int32(Int16.max) else { return 0 }
        let p = Int16(nextPair)
        nextPair += 1
        init_pair(p, color(style.foreground), color(style.background))
        pairs[key] = p
        return p
    }

    private func color(_ c: Style.Color) -> Int16 {
        guard let i = c.index else { return -1 }
        if Int32(i) < colorCount { return Int16(i) }
        return Int16(i % 8)
    }

    /// Sends what was drawn to the terminal (`wnoutrefresh` + `doupdate`). Does nothing when
    /// nothing was drawn, cleared, resized or moved since the last update: ncurses would
    /// compare every line and send nothing.
    public func flush() {
        NcursesBackend.assertOnMainThread()
        guard needsUpdate else { return }
        needsUpdate = false
        if let p = cursor { _ = cncurses_move(Int32(p.y), Int32(p.x)) }
        _ = cncurses_wnoutrefresh()
        doupdate()
    }

    public func clear() {
        NcursesBackend.assertOnMainThread()
        needsUpdate = true
        _ = cncurses_clearok(1)
        erase()
    }

    public func setCursor(_ position: Point?) {
        NcursesBackend.assertOnMainThread()
        needsUpdate = true
        cursor = position
        if let p = position {
            _ = cncurses_move(Int32(p.y), Int32(p.x))
            curs_set(1)
        } else {
            curs_set(0)
        }
    }

    public func shutdown() {
        guard isOpen else { return }
        NcursesBackend.assertOnMainThread()
        isOpen = false
        curs_set(1)
        endwin()
        cncurses_disarm_restore()
    }

    /// Gives the terminal back — the shell's modes, the main screen, the cursor — and stops the
    /// process, as Ctrl-Z does in a shell; returns once the shell continues it (`fg`), with the
    /// terminal taken again at the next `flush()`. The caller then repaints every cell. Does
    /// nothing where job control is off.
    public func suspend() {
        NcursesBackend.assertOnMainThread()
        guard isOpen, jobControl else { return }
        endwin()
        cncurses_stop_job()
        resume()
    }

    /// Takes the terminal again after the process was continued (SIGCONT): ncurses' program
    /// modes — a shell may have set its own while the program was stopped; from the background
    /// this stops the process again (SIGTTOU), until `fg` — and the keypad's mode, then at the
    /// next `flush()` the alternate screen. The caller repaints every cell.
    public func resume() {
        NcursesBackend.assertOnMainThread()
        guard isOpen else { return }
        reset_prog_mode()
        // endwin turned the keypad's application mode off, and the update does not turn it on.
        _ = cncurses_keypad(1)
        curs_set(cursor == nil ? 0 : 1)
        _ = updateSize()
        needsUpdate = true
    }

    /// Traps in debug builds when called off the main OS thread (the main actor alone does
    /// not guarantee it: on Linux, `dispatchMain()` ends the main thread and the main queue
    /// is then drained by worker threads).
    nonisolated static func assertOnMainThread(_ function: StaticString = #function) {
        assert(cncurses_is_main_thread() != 0, "NcursesBackend.\(function) called off the main OS thread")
    }

    public var interactive: (any InteractiveBackend)? { self }

    /// Restores the default action of `signal` and raises it (after `shutdown()`), so the
    /// process ends the way the signal asked.
    public func reraise(_ signal: Int32) -> Never {
        cncurses_reraise(signal)
        exit(128 + signal)
    }
}
