import TerminalUI
import Testing

@testable import Lab

@Suite struct BundledScriptTests {
    @Test func bundledScriptsParse() throws {
        for (name, text) in LabResources.scripts {
            #expect(!(try KeyScript.parse(text, comments: true)).isEmpty, "\(name)")
        }
        #expect(LabResources.script(named: "bound-orientation.keys") != nil)
        #expect(LabResources.script(named: "nope") == nil)
    }

    /// The tour presents every scenario with its own keys, bound then leaky: the bound half
    /// ends at the baseline but for the app session (a live owner holding nothing), the leaky
    /// half leaves one leak per scenario but accumulation, which grows instead.
    @MainActor
    @Test func tourVisitsEveryScenarioAndBoundEndsAtBaseline() async throws {
        let steps = try KeyScript.parse(try #require(LabResources.script(named: "tour")), comments: true)
        let modeSwitch = try #require(steps.firstIndex(of: .key(.character("m"))))
        let presented = Set(
            steps.compactMap { step -> Int? in
                guard case .key(.character(let c)) = step else { return nil }
                return c.wholeNumberValue
            })
        #expect(presented == Set(Scenarios.all.map(\.number)))
        let lab = HeadlessLab()
        await lab.run(Array(steps[..<modeSwitch]))
        var baseline = zeroCounters
        baseline.viewModels = 1
        #expect(lab.dump().counters == baseline, "the app session alone")
        #expect(lab.dump().stack == ["home"])
        #expect(lab.dump().growth.isEmpty)
        await lab.run(Array(steps[modeSwitch...]))
        let owners = lab.dump().leaks.map { String($0.owner.prefix { $0 != "#" }) }
        #expect(
            owners == [
                "OrientationViewModel", "LiveDataViewModel", "ForwarderViewModel", "AsyncSinkViewModel",
                "ObservedViewModel", "LifecycleViewModel", "ObservationViewModel",
            ])
        #expect(lab.dump().growth.map(\.owner) == ["AppSession#1"])
        #expect(lab.dump().growth.map(\.live) == [3])
        #expect(lab.dump().stack == ["home"])
    }
}

@MainActor
@Suite struct KeyMapTests {
    @Test func bundledMapListsEveryGlobalKeyAndTheyWork() async throws {
        let map = KeyMap.bundled
        let globals = map.bindings(in: .global).map(\.key)
        #expect(globals == ["r", "m", "i", "Tab", "?", "q"])
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

    /// In the smallest terminal each runs in, the help overlay has the terminal's width less 4
    /// columns inside its border and padding. Reflowed there, every wrapped row keeps its line's
    /// hanging indent: no entry hangs so deep that its indent is dropped. (That the paragraphs
    /// fill the rows is `LabScreenTests.theHelpIsReflowedToANarrowOverlay`.)
    @Test func everyHelpEntryKeepsItsHangInTheSmallestTerminal() {
        let helps = [
            (KeyMap.bundled.helpText, LabApp.minimumSize.width - 4),
            (KeyMap.bundled.attachHelpText, AttachApp.minimumSize.width - 4),
        ]
        for (help, width) in helps {
            for line in Paragraph.reflowed(help) {
                let lead = Line(line.continuation).plainText
                for row in Paragraph.wrap(line, width: width).dropFirst() {
                    #expect(row.plainText.hasPrefix(lead), "\(row.plainText)")
                }
            }
        }
    }

    /// The lab's help lists the inspector's and the report's keys; attach's lists its own and
    /// none of the lab's.
    @Test func eachHelpListsTheKeysOfItsOwnScreens() {
        let lab = KeyMap.bundled.helpText
        #expect(lab.contains("In the inspector (after Tab)") && lab.contains("In a leak's report"))
        #expect(!lab.contains("Watching a process"))
        let attach = KeyMap.bundled.attachHelpText
        #expect(!attach.contains("{{keys}}"))
        #expect(attach.contains("Watching a process") && attach.contains("In a leak's report"))
        #expect(!attach.contains("Rotate the device"))
        #expect(attach.contains("retrying") || attach.contains("tries the same path again"))
        #expect(lab.contains("Ctrl-Z") && attach.contains("Ctrl-Z"), "job control, in both")
    }

    @Test func helpDescribesEveryScenarioAndItsOwnKeys() {
        let help = KeyMap.bundled.helpText
        for scenario in Scenarios.all {
            #expect(help.contains("  \(scenario.number) \(scenario.title) "), "scenario \(scenario.id)")
        }
        for line in [
            "p    cycle the overlap policy", "←/→  change A", "↑/↓  change B", "b    bind A and B",
            "u    unbind", "d    disable or re-enable", "o    make the tally obsolete", "c    cleanse",
            "n    cover the screen",
        ] {
            #expect(help.contains(line), "\(line)")
        }
        #expect(!help.lowercased().contains("probe"))
    }

    @Test func badLinesAreRejectedWithTheirNumber() {
        #expect(throws: KeyMap.ParseError(line: 2, reason: "unknown context \"nowhere\"")) {
            try KeyMap(parsing: "r | global | rotate | x\nz | nowhere | zz | y")
        }
        #expect(throws: KeyMap.ParseError.self) { try KeyMap(parsing: "r rotate") }
    }
}
