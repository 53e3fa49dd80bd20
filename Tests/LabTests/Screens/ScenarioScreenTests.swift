import TerminalUI
import Testing

@testable import Lab

/// What the user reads on each scenario's sheet: the lab driven by keys to a known state, the
/// sheet drawn alone at 100×32, its title and every line below its head compared whole. The
/// scenarios' behaviour is proved on their view models' state by the logic tests
/// (`Tests/LabTests/Scenarios`); these tests prove only the words.
@MainActor
@Suite struct ScenarioScreenTests {
    func sheet(after keys: String) async throws -> SheetText {
        try await runLab(keys, scenarios: Scenarios.all).sheetText()
    }

    @Test func orientationSaysWhetherEachSourceSaysPortraitAndWhatItReceived() async throws {
        let lab = try await runLab("1", scenarios: Scenarios.all)
        #expect(
            try lab.sheetText()
                == SheetText(
                    title: "Orientation (bound)",
                    lines: [
                        "Portrait from publisher: yes   1 value received",
                        "Portrait from sequence:  no    0 values received",
                    ]))
        await lab.run(try KeyScript.parse("r"))
        #expect(
            try lab.sheetText().lines == [
                "Portrait from publisher: no    2 values received",
                "Portrait from sequence:  no    1 value received",
            ])
        await lab.run(try KeyScript.parse("r r r"))
        #expect(
            try lab.sheetText().lines == [
                "Portrait from publisher: yes   5 values received",
                "Portrait from sequence:  yes   4 values received",
            ])
    }

    @Test func liveDataShowsEachPanelAndTheObserverCount() async throws {
        #expect(
            try await sheet(after: "2 r")
                == SheetText(
                    title: "LiveData (bound)",
                    lines: [
                        "Panel A   last landscapeLeft       received 2",
                        "Panel B   last landscapeLeft       received 2",
                        "Panel C   last landscapeLeft       received 2",
                        "",
                        "observers on the LiveData 3",
                    ]))
        #expect(
            try await sheet(after: "m 2 Esc wait:400 2")
                == SheetText(
                    title: "LiveData (leaky)",
                    lines: [
                        "Panel A   last portrait            received 1",
                        "Panel B   last portrait            received 1",
                        "Panel C   last portrait            received 1",
                        "",
                        "observers on the LiveData 6",
                    ]))
    }

    @Test func fuseShowsTheForwarderTheFuseAndTheConsumersLog() async throws {
        #expect(
            try await sheet(after: "3 r r")
                == SheetText(
                    title: "Fuse (bound)",
                    lines: [
                        "forwarder ForwarderViewModel#1  mapped 3  last portraitUpsideDown (mapped #3)",
                        "fuse intact — blows when this forwarder deinitializes",
                        "consumer #1 (this forwarder)  3 values  receiving",
                        "",
                        "Consumer's log (it outlives this sheet)",
                        "#1 portrait (mapped #1)",
                        "#1 landscapeLeft (mapped #2)",
                        "#1 portraitUpsideDown (mapped #3)",
                    ]))
    }

    @Test func fuseShowsTheBlownFuseAsFinishedWithoutANil() async throws {
        #expect(
            try await sheet(after: "3 r r Esc wait:400 r 3")
                == SheetText(
                    title: "Fuse (bound)",
                    lines: [
                        "forwarder ForwarderViewModel#2  mapped 1  last landscapeRight (mapped #1)",
                        "fuse intact — blows when this forwarder deinitializes",
                        "consumer #1 (ForwarderViewModel#1)  3 values  finished: fuse blew",
                        "consumer #2 (this forwarder)  1 values  receiving",
                        "",
                        "Consumer's log (it outlives this sheet)",
                        "#1 portrait (mapped #1)",
                        "#1 landscapeLeft (mapped #2)",
                        "#1 portraitUpsideDown (mapped #3)",
                        "#1 .finished — the fuse blew",
                        "#2 landscapeRight (mapped #1)",
                    ]))
    }

    @Test func fuseShowsTheLeakyConsumersNilsNamedByTheHandOver() async throws {
        #expect(
            try await sheet(after: "m 3 r r Esc wait:400 r r 3")
                == SheetText(
                    title: "Fuse (leaky)",
                    lines: [
                        "forwarder ForwarderViewModel#2  mapped 1  last portrait (mapped #1)",
                        "fuse none",
                        "consumer #1 (ForwarderViewModel#1)  3 values  2 nils  receiving",
                        "consumer #2 (this forwarder)  1 values  receiving",
                        "",
                        "Consumer's log (it outlives this sheet)",
                        "#1 portrait (mapped #1)",
                        "#1 landscapeLeft (mapped #2)",
                        "#1 portraitUpsideDown (mapped #3)",
                        "#1 nil — its forwarder is gone",
                        "#1 nil — its forwarder is gone",
                        "#2 portrait (mapped #1)",
                    ]))
    }

    @Test func asyncSinkShowsThePolicyTheCountsAndAProgressBarPerRotation() async throws {
        let lab = try await runLab("4 r r wait:500", scenarios: Scenarios.all)
        #expect(
            try lab.sheetText()
                == SheetText(
                    title: "asyncSink (bound)",
                    lines: [
                        "overlap .concurrent  (p cycles it; the sink is remade)",
                        "started 2   running 2",
                        "",
                        "#1 landscapeLeft running                                     17%",
                        "#2 portraitUpsideDown running                                17%",
                    ]))
        await lab.run(try KeyScript.parse("wait:2600"))
        #expect(
            try lab.sheetText().lines == [
                "overlap .concurrent  (p cycles it; the sink is remade)",
                "started 2   running 0",
                "",
                "#1 landscapeLeft done                                      100%",
                "#2 portraitUpsideDown done                                 100%",
            ])
    }

    @Test func asyncSinkNamesEachPolicyAndMarksCancelledWork() async throws {
        let lab = try await runLab("4 p", scenarios: Scenarios.all)
        #expect(
            try lab.sheetText().lines == [
                "overlap .serial  (p cycles it; the sink is remade)",
                "started 0   running 0",
                "",
                "Rotate (r) to start work.",
            ])
        await lab.run(try KeyScript.parse("r r wait:500"))
        #expect(
            try lab.sheetText().lines == [
                "overlap .serial  (p cycles it; the sink is remade)",
                "started 1   running 1",
                "",
                "#1 landscapeLeft running                                   17%",
            ])
        await lab.run(try KeyScript.parse("p p p"))
        #expect(
            try lab.sheetText().lines == [
                "overlap .concurrent  (p cycles it; the sink is remade)",
                "started 1   running 0",
                "",
                "#1 landscapeLeft cancelled                                  17%",
            ])
    }

    /// In the lab's own frame, beside the inspector: the label column is as wide as the longest.
    @Test func asyncSinkShowsTheLongestJobLabelWhole() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("4 r r wait:200 p"))
        #expect(lab.screenText.contains("#2 portraitUpsideDown cancelled"))
    }

    static let observedKeys =
        "←/→ A  ↑/↓ B  b bind  u unbind  d disable/enable log  o obsolete tally  c cleanse"

    /// The observation table under the values, with the tally's and the binding's states.
    static func observations(
        logs: String = ".all       live", tally: String = ".did       live, in lifetime",
        binding: String = "—          not bound"
    ) -> [String] {
        [
            "observation    on     kind       state",
            "A log          A      \(logs), in lifetime",
            "B log          B      \(logs), in lifetime",
            "A tally        A      \(tally)",
            "binding        A ⇄ B  \(binding)",
        ]
    }

    @Test func observedShowsTheValuesTheObservationsAndTheWillDidLog() async throws {
        #expect(
            try await sheet(after: "5 Right Right Down")
                == SheetText(
                    title: "Observed (bound)",
                    lines: [
                        ScenarioScreenTests.observedKeys, "A 2   B -1   not bound   tally of A's changes 2",
                        "",
                    ]
                        + ScenarioScreenTests.observations() + [
                            "",
                            "Will/did log",
                            "will A → 1",
                            "did  A 0 → 1",
                            "will A → 2",
                            "did  A 1 → 2",
                            "will B → -1",
                            "did  B 0 → -1",
                        ]))
        #expect(
            try await sheet(after: "5 Right r r").line(1)
                == "A 1   B 0   not bound   tally of A's changes 1",
            "rotating changes nothing here")
    }

    @Test func observedShowsTheBindingAndItsEnd() async throws {
        let lab = try await runLab("5 b Right", scenarios: Scenarios.all)
        #expect(
            try lab.sheetText().lines
                == [ScenarioScreenTests.observedKeys, "A 1   B 1   A ⇄ B bound   tally of A's changes 1", ""]
                + ScenarioScreenTests.observations(binding: "did        bound") + [
                    "",
                    "Will/did log",
                    "bind: A ⇄ B bound",
                    "will A → 1",
                    "did  A 0 → 1",
                    "will B → 1",
                    "did  B 0 → 1",
                ])
        await lab.run(try KeyScript.parse("Up u Right"))
        let text = try lab.sheetText()
        #expect(text.line(1) == "A 3   B 2   not bound   tally of A's changes 3")
        #expect(text.line(7) == "binding        A ⇄ B  —          not bound")
        #expect(text.lines.suffix(3) == ["unbind: A and B independent", "will A → 3", "did  A 2 → 3"])
    }

    @Test func observedShowsDisabledLogObservationsAndTheirNotes() async throws {
        let lab = try await runLab("5 d Right", scenarios: Scenarios.all)
        #expect(
            try lab.sheetText().lines
                == [ScenarioScreenTests.observedKeys, "A 1   B 0   not bound   tally of A's changes 1", ""]
                + ScenarioScreenTests.observations(logs: ".disabled  disabled") + [
                    "", "Will/did log", "log observations: .disabled",
                ])
        await lab.run(try KeyScript.parse("d Right"))
        let text = try lab.sheetText()
        #expect(Array(text.lines.dropFirst(3).prefix(5)) == ScenarioScreenTests.observations())
        #expect(
            text.lines.suffix(5) == [
                "Will/did log", "log observations: .disabled", "log observations: .all", "will A → 2",
                "did  A 1 → 2",
            ])
    }

    @Test func observedShowsTheTallyObsoletePurgedAndNew() async throws {
        let lab = try await runLab("5 Right o Right", scenarios: Scenarios.all)
        var text = try lab.sheetText()
        #expect(text.line(1) == "A 2   B 0   not bound   tally of A's changes 1")
        #expect(text.line(6) == "A tally        A      .disabled  obsolete, held until c")
        #expect(text.lines.contains("tally: obsolete (disabled; A still holds it until cleanse)"))
        await lab.run(try KeyScript.parse("c"))
        text = try lab.sheetText()
        #expect(text.line(6) == "A tally        A      .disabled  purged (o: a new one)")
        #expect(text.lines.last == "cleanse: obsolete tally purged")
        await lab.run(try KeyScript.parse("o Right"))
        text = try lab.sheetText()
        #expect(text.line(1) == "A 3   B 0   not bound   tally of A's changes 1")
        #expect(text.line(6) == "A tally        A      .did       live, in lifetime")
        #expect(text.lines.suffix(3) == ["tally: a new one observes A", "will A → 3", "did  A 2 → 3"])
    }

    @Test func lifecycleShowsTheScreenTheObserverTheValuesAndTheTicker() async throws {
        #expect(
            try await sheet(after: "6 wait:2500")
                == SheetText(
                    title: "Lifecycle (bound)",
                    lines: [
                        "screen resumed",
                        "observer active   paused in the ledger 0",
                        "values received 1   last portrait",
                        "while covered 0   on return 0",
                        "ticker running   ticks 2",
                        "",
                        "· received portrait on start",
                    ]))
    }

    @Test func lifecycleShowsTheCoveredScreenPausedAndStopped() async throws {
        #expect(
            try await sheet(after: "6 wait:2500 n r r wait:3000").lines == [
                "screen created",
                "observer paused   paused in the ledger 1",
                "values received 1   last portrait",
                "while covered 0   on return 0",
                "ticker stopped   ticks 2",
                "",
                "· received portrait on start",
                "· covered: observer paused, ticker stopped",
            ])
    }

    @Test func lifecycleCoverSaysItsPieceAtTheSmallestSize() async throws {
        let lab = try await runLab("6 n", scenarios: Scenarios.all, size: Size(width: 80, height: 24))
        let screen = lab.screenText
        #expect(screen.contains("Another screen is on top: the lifecycle"))
        #expect(screen.contains("sheet is stopped."))
        #expect(screen.contains("Rotate with r, then Esc to return."))
    }

    @Test func lifecycleShowsTheValueReceivedOnceOnReturn() async throws {
        let lab = try await runLab("6 wait:2500 n r r Esc", scenarios: Scenarios.all)
        #expect(
            try lab.sheetText().lines == [
                "screen resumed",
                "observer active   paused in the ledger 0",
                "values received 2   last portraitUpsideDown",
                "while covered 0   on return 1",
                "ticker running   ticks 2",
                "",
                "· received portrait on start",
                "· covered: observer paused, ticker stopped",
                "· back on top",
                "· received portraitUpsideDown on return, once",
            ])
        await lab.run(try KeyScript.parse("wait:1000 r"))
        #expect(
            try lab.sheetText().lines.prefix(5) == [
                "screen resumed",
                "observer active   paused in the ledger 0",
                "values received 3   last landscapeRight",
                "while covered 0   on return 1",
                "ticker running   ticks 3",
            ])
        #expect(try lab.sheetText().lines.last == "· received landscapeRight")
    }

    @Test func lifecycleLeakyShowsWhatItReceivedWhileCovered() async throws {
        #expect(
            try await sheet(after: "m 6 wait:1500 n r r wait:1000")
                == SheetText(
                    title: "Lifecycle (leaky)",
                    lines: [
                        "screen created",
                        "observer never pauses (no owner)   paused in the ledger 0",
                        "values received 3   last portraitUpsideDown",
                        "while covered 2   on return 0",
                        "ticker running   ticks 2",
                        "",
                        "· received portrait on start",
                        "· covered: nothing pauses",
                        "· received landscapeLeft while covered",
                        "· received portraitUpsideDown while covered",
                    ]))
    }

    /// The head says what the sheet teaches and that it takes three visits; the status says
    /// where the subscription is stored and counts what the session's bag holds.
    @Test func accumulationSaysItTakesThreeVisitsAndCountsWhatTheSessionHolds() async throws {
        let lab = try await runLab("m 7 Esc 7 r", scenarios: Scenarios.all)
        let head = lab.screenText
        #expect(head.contains(".store(boundTo: session.bag)"))
        #expect(head.contains(".store(in: &session.cancellables)"))
        #expect(head.contains("three visits"))
        #expect(
            try lab.sheetText()
                == SheetText(
                    title: "Accumulation (leaky)",
                    lines: [
                        "subscription stored in AppSession#1's bag",
                        "the session's bag holds 2 subscriptions from these sheets",
                        "rotations heard by this sheet: 1",
                    ]))
        #expect(
            try await sheet(after: "7").lines == [
                "subscription stored in this view model's bag",
                "the session's bag holds 0 subscriptions from these sheets",
                "rotations heard by this sheet: 0",
            ])
    }
}
