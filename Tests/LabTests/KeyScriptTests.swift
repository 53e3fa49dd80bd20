import Lab
import TerminalUI
import Testing

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
    }

    @Test func unknownNamesAndBadWaitsAreNamed() {
        #expect(throws: KeyScriptError("unknown key name \"Foo\"")) { try KeyScript.parse("1 Foo r") }
        #expect(throws: KeyScriptError.self) { try KeyScript.parse("wait:soon") }
        #expect(throws: KeyScriptError.self) { try KeyScript.parse("wait:-5") }
    }

    @Test func bundledScriptsParse() throws {
        for (name, text) in LabResources.scripts {
            #expect(!(try KeyScript.parse(text, comments: true)).isEmpty, "\(name)")
        }
        #expect(LabResources.script(named: "bound-orientation.keys") != nil)
        #expect(LabResources.script(named: "nope") == nil)
    }
}

@MainActor
@Suite struct KeyMapTests {
    @Test func bundledMapListsEveryGlobalKeyAndTheyWork() async throws {
        let map = KeyMap.bundled
        let globals = map.bindings(in: .global).map(\.key)
        #expect(globals == ["r", "m", "i", "?", "q"])
        for key in globals where key != "q" {
            let lab = HeadlessLab(scenarios: [FakeScenario.make()])
            let handled = lab.lab.application.send(try #require(Key(name: key)))
            #expect(handled, "\(key) is handled")
        }
    }

    @Test func helpTextHasTheKeyTable() {
        let help = KeyMap.bundled.helpText
        #expect(!help.contains("{{keys}}"))
        #expect(help.contains("Rotate the device"))
        #expect(help.contains("Everywhere"))
    }

    @Test func badLinesAreRejectedWithTheirNumber() {
        #expect(throws: KeyMap.ParseError(line: 2, reason: "unknown context \"nowhere\"")) {
            try KeyMap(parsing: "r | global | rotate | x\nz | nowhere | zz | y")
        }
        #expect(throws: KeyMap.ParseError.self) { try KeyMap(parsing: "r rotate") }
    }
}
