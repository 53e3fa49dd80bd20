import Testing

@testable import TerminalUI

@Suite struct KeyTests {
    @Test func parsesKeyNames() {
        let cases: [(String, Key)] = [
            ("1", .character("1")), ("r", .character("r")), ("Enter", .enter), ("Esc", .escape), ("Up", .up),
            ("Down", .down), ("Left", .left), ("Right", .right), ("Tab", .tab), ("Space", .character(" ")),
            ("Backspace", .backspace), ("F1", .function(1)), ("F12", .function(12)), ("Ctrl-C", .ctrl("c")),
            ("PageUp", .pageUp), ("PageDown", .pageDown), ("Home", .home), ("End", .end),
            ("?", .character("?")),
        ]
        for (name, key) in cases {
            #expect(Key(name: name) == key, "\(name)")
            #expect(Key(name: key.name) == key, "round trip of \(name)")
        }
    }

    /// The function keys a name may spell are the ones a terminal reports: F1 to F63 (Shift-F1 is
    /// F13 on an xterm), no F0, no F64 — the set `--help` lists.
    @Test func functionKeyNamesAreTheOnesATerminalReports() {
        #expect(Key.functionKeys == 1...63)
        for n in Key.functionKeys {
            #expect(Key(name: "F\(n)") == .function(n))
            #expect(Key(name: "f\(n)") == .function(n))
        }
        for name in ["F0", "F64", "F-1", "F1.5"] {
            #expect(Key(name: name) == nil, "\(name)")
        }
    }

    /// A Ctrl-letter name means what a terminal sends for it, as typed keys do: Ctrl-M is Enter.
    @Test func ctrlNamesAreTheKeysATerminalSends() {
        let cases: [(String, Key)] = [
            ("Ctrl-M", .enter), ("Ctrl-J", .enter), ("Ctrl-I", .tab), ("Ctrl-H", .backspace),
            ("c-a", .ctrl("a")),
        ]
        for (name, key) in cases {
            #expect(Key(name: name) == key, "\(name)")
        }
    }

    @Test func unknownNamesAreNil() throws {
        for name in ["", "Foo", "F0", "F99", "Ctrl-", "Ctrl-12", "\u{1C}", "\u{0}", "\u{9B}"] {
            #expect(Key(name: name) == nil, "\(name)")
        }
        #expect(throws: KeyScriptError("unknown key name \"Bogus\"")) { try KeyScript.parse("1 r Bogus") }
        #expect(
            try KeyScript.parse("1 r  Esc") == [.key(.character("1")), .key(.character("r")), .key(.escape)])
    }

    @Test func navigationKeysMoveByStepPageOrAllTheWay() {
        #expect(Key.up.navigationStep(page: 5, limit: 9) == -1)
        #expect(Key.character("j").navigationStep(page: 5, limit: 9) == 1)
        #expect(Key.pageDown.navigationStep(page: 5, limit: 9) == 5)
        #expect(Key.home.navigationStep(page: 5, limit: 9) == -9)
        #expect(Key.end.navigationStep(page: 5, limit: 9) == 9)
        #expect(Key.character("x").navigationStep(page: 5, limit: 9) == nil)
    }

    @Test func decodesControlBytes() {
        #expect(Key.decode(scalar: "\r") == .enter)
        #expect(Key.decode(scalar: "\n") == .enter)
        #expect(Key.decode(scalar: "\t") == .tab)
        #expect(Key.decode(scalar: "\u{7F}") == .backspace)
        #expect(Key.decode(scalar: "\u{08}") == .backspace)
        #expect(Key.decode(scalar: "\u{1B}") == .escape)
        #expect(Key.decode(scalar: "\u{03}") == .ctrl("c"))
        #expect(Key.decode(scalar: "\u{1A}") == .ctrl("z"))
        #expect(Key.decode(scalar: "中") == .character("中"))
        #expect(Key.decode(scalar: "\u{00}") == nil)
    }

    @Test func mapsNcursesKeyCodes() {
        // Values from ncurses.h (octal), stable across ncurses versions.
        #expect(NcursesBackend.key(forKeyCode: 0o403) == .up)
        #expect(NcursesBackend.key(forKeyCode: 0o402) == .down)
        #expect(NcursesBackend.key(forKeyCode: 0o404) == .left)
        #expect(NcursesBackend.key(forKeyCode: 0o405) == .right)
        #expect(NcursesBackend.key(forKeyCode: 0o410 + 5) == .function(5))
        #expect(NcursesBackend.key(forKeyCode: 0o522) == .pageDown)
        #expect(NcursesBackend.key(forKeyCode: 0o523) == .pageUp)
        #expect(NcursesBackend.key(forKeyCode: 0o407) == .backspace)
        #expect(NcursesBackend.key(forKeyCode: 0o541) == .backTab)
        #expect(NcursesBackend.key(forKeyCode: 0o632) == nil)  // KEY_RESIZE is an event, not a key
    }
}

/// The one parser of key sequences: names, waits, and comments in scripts.
@Suite struct KeyScriptTests {
    @Test func parsesNamesAndWaits() throws {
        let steps = try KeyScript.parse("1 r  Enter\tEsc Up Down Left Right Tab Space wait:400 ? q")
        #expect(
            steps == [
                .key(.character("1")), .key(.character("r")), .key(.enter), .key(.escape), .key(.up),
                .key(.down),
                .key(.left), .key(.right), .key(.tab), .key(.character(" ")), .wait(.milliseconds(400)),
                .key(.character("?")), .key(.character("q")),
            ])
    }

    @Test func scriptsHaveCommentsAndLines() throws {
        let steps = try KeyScript.parse("# a comment\n1 r # rotate\n\nEsc\n", comments: true)
        #expect(steps == [.key(.character("1")), .key(.character("r")), .key(.escape)])
        #expect(try KeyScript.parse("#") == [.key(.character("#"))], "outside scripts # is a key")
        #expect(
            try KeyScript.parse("\u{FEFF}1 r\n", comments: true) == [
                .key(.character("1")), .key(.character("r")),
            ],
            "a script's byte-order mark is not a key")
    }

    @Test func unknownNamesAndBadWaitsAreNamed() {
        #expect(throws: KeyScriptError("unknown key name \"Foo\"")) { try KeyScript.parse("1 Foo r") }
        #expect(throws: KeyScriptError.self) { try KeyScript.parse("wait:soon") }
        #expect(throws: KeyScriptError.self) { try KeyScript.parse("wait:-5") }
    }
}

@Suite struct UTF8AssemblerTests {
    private func scalars(_ reads: [[UInt8]]) -> String {
        var assembler = UTF8Assembler()
        var text = ""
        for read in reads {
            for byte in read { if let scalar = assembler.push(byte) { text.unicodeScalars.append(scalar) } }
        }
        return text
    }

    @Test func charactersSplitBetweenReadsArriveWhole() {
        #expect(scalars([[0x61, 0xC3], [0xA9, 0x62]]) == "aéb")
        #expect(scalars([[0xE4], [0xB8], [0xAD, 0x7A]]) == "中z")
        #expect(scalars([[0xF0, 0x9F], [0x98, 0x80]]) == "😀")
    }

    @Test func aByteThatIsNoPartOfACharacterIsDroppedAlone() {
        #expect(scalars([[0xFF, 0x78, 0xE9, 0x79]]) == "xy", "0xFF, and a Latin-1 é cut short by y")
        #expect(scalars([[0x80, 0x41]]) == "A", "a continuation with nothing before it")
        #expect(scalars([[0xC3, 0x41, 0xC3, 0xA9]]) == "Aé", "an unfinished character, then a whole one")
        #expect(scalars([[0xE0, 0x80, 0x80, 0x42]]) == "B", "an overlong form")
        #expect(scalars([[0xED, 0xA0, 0x80, 0x43]]) == "C", "a surrogate")
    }
}

@Suite struct EscapeSequencesTests {
    /// What reads of `bytes` give: `⎋` for the Esc key, the other bytes as text.
    private func keys(_ reads: [String]) -> String {
        var sequences = EscapeSequences()
        var keys = ""
        for read in reads {
            for byte in read.utf8 {
                let outcome = sequences.push(byte)
                if outcome.escape { keys += "⎋" }
                if outcome.passes { keys.unicodeScalars.append(Unicode.Scalar(byte)) }
            }
            if sequences.flush() { keys += "⎋" }
        }
        return keys
    }

    @Test func anUnknownSequenceIsDroppedWhole() {
        #expect(keys(["\u{1B}[1;5C"]) == "", "Ctrl-→ where the terminfo entry lacks it")
        #expect(keys(["a\u{1B}[200~b"]) == "ab", "a sequence between two keys")
        #expect(keys(["\u{1B}OP1"]) == "1", "an SS3 sequence, then a key")
        #expect(keys(["\u{1B}[A\u{1B}[B"]) == "", "two in one read")
    }

    @Test func anEscNotFollowedByASequenceIsTheEscKey() {
        #expect(keys(["\u{1B}"]) == "⎋", "alone in its read")
        #expect(keys(["\u{1B}", "1"]) == "⎋1", "a key in the next read")
        #expect(keys(["\u{1B}q"]) == "⎋q", "a key typed right after it, in the same read")
        #expect(keys(["\u{1B}\u{1B}"]) == "⎋⎋")
        #expect(keys(["\u{1B}\u{1B}[A"]) == "⎋", "Esc, then a sequence")
    }

    @Test func aSequenceCutByTheEndOfARead() {
        #expect(keys(["\u{1B}[", "A"]) == "A", "forgotten at the read's end; what follows is read")
    }
}
