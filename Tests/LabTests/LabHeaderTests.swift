import TerminalUI
import Testing

@testable import Lab

/// The header draws the simulated device as it is held, so a rotation is seen.
@MainActor
@Suite struct LabHeaderTests {
    @Test func thePhoneStandsOrLiesWithItsCameraAtTheTop() {
        #expect(LabHeader.device(.portrait, ascii: false) == ["╭•╮", "│ │", "╰─╯"])
        #expect(LabHeader.device(.landscapeLeft, ascii: false) == ["╭─────╮", "•     │", "╰─────╯"])
        #expect(LabHeader.device(.portraitUpsideDown, ascii: false) == ["╭─╮", "│ │", "╰•╯"])
        #expect(LabHeader.device(.landscapeRight, ascii: false) == ["╭─────╮", "│     •", "╰─────╯"])
    }

    @Test func plainASCIIWhereTheTerminalIsNotUTF8() {
        #expect(LabHeader.device(.portrait, ascii: true) == ["+o+", "| |", "+-+"])
        #expect(LabHeader.device(.landscapeRight, ascii: true) == ["+-----+", "|     o", "+-----+"])
    }

    @Test func rotatingTurnsThePhoneOnScreen() async throws {
        let lab = try await runLab("")
        #expect(lab.backend.trimmedTextLines[0].hasPrefix("   ╭•╮    Tether Lab   orientation portrait"))
        await lab.press(.character("r"))
        let header = lab.backend.trimmedTextLines.prefix(3)
        #expect(header.map { String($0.prefix(8)) } == [" ╭─────╮", " •     │", " ╰─────╯"])
        #expect(header[0].contains("orientation landscapeLeft"))
        #expect(header[2].hasSuffix("home"), "the stack's path")
    }

    @Test func asciiThemeDrawsTheASCIIPhone() async throws {
        let lab = HeadlessLab(scenarios: [FakeScenario.make()], theme: Theme.standard.ascii)
        await lab.run(try KeyScript.parse("1"))
        let header = lab.backend.trimmedTextLines.prefix(3)
        #expect(header.map { String($0.prefix(6)) } == ["   +o+", "   | |", "   +-+"])
        #expect(header[2].hasSuffix("home > fake"))
    }
}

/// `Resources/scenarios.txt`: what every scenario says to users.
@Suite struct ScenarioTextTests {
    @Test func everyScenarioIsDescribedInHomesOrder() {
        #expect(Scenarios.all.map(\.number) == [1, 2, 3, 4, 5, 6, 7, 8])
        for scenario in Scenarios.all {
            for field in [scenario.title, scenario.summary, scenario.pattern, scenario.origin] {
                #expect(!field.isEmpty, "\(scenario.id)")
            }
            #expect(scenario.bound.hasPrefix("Bound: ") && scenario.leaky.hasPrefix("Leaky: "))
            #expect(scenario.origin.hasPrefix("from "), "in plain words: \(scenario.origin)")
        }
        #expect(Scenarios.all.map(\.pattern).contains("fuse(heldBy:on:)"))
    }

    @Test func badLinesAndMissingFieldsAreNamed() {
        #expect(throws: KeyMap.ParseError(line: 2, reason: "expected `field: value`")) {
            try ScenarioText.parse("id: a\nno colon here")
        }
        #expect(throws: KeyMap.ParseError(line: 1, reason: "a has no title")) {
            try ScenarioText.parse("id: a\nsummary: s")
        }
        #expect(throws: KeyMap.ParseError(line: 1, reason: "unexpected field \"colour\"")) {
            try ScenarioText.parse("colour: red")
        }
    }
}
