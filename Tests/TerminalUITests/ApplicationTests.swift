import Testing
import Tether

@testable import TerminalUI

@MainActor
@Suite struct ApplicationTests {
    private func makeApp(width: Int = 20, height: Int = 6) -> (
        Application, TestBackend, RecordingScreen, Recorder
    ) {
        let r = Recorder()
        let home = RecordingScreen("home", recorder: r)
        let backend = TestBackend(width: width, height: height)
        let app = Application(
            backend: backend, root: home, theme: .standard, minimumSize: Size(width: 10, height: 4))
        home.keys[.enter] = { ctx in
            ctx.present(RecordingScreen("sheet", recorder: r, presentation: .sheet()))
        }
        app.onKey(.character("q"), hint: "quit") { $0.quit(code: 3) }
        return (app, backend, home, r)
    }

    @Test func drawsTheStackAndFooter() {
        let (app, _, _, _) = makeApp()
        app.render()
        #expect(
            app.textLines == [
                "┌home──────────────┐",
                "│                  │",
                "│                  │",
                "│                  │",
                "└──────────────────┘",
                "x home  q quit      ",
            ])
    }

    @Test func injectedKeysPresentAndEscDismisses() {
        let (app, backend, _, _) = makeApp()
        app.send(.enter)
        app.render()
        #expect(app.stack.ids == ["home", "sheet"])
        #expect(
            backend.textLines == [
                "┌h┌sheet─────────┐─┐",
                "│ │              │ │",
                "│ │              │ │",
                "│ └──────────────┘ │",
                "└──────────────────┘",
                "x sheet  q quit     ",
            ])
        #expect(app.send(.escape))
        app.render()
        #expect(app.stack.ids == ["home"])
        #expect(backend.textLines[1] == "│                  │")
    }

    /// A side panel with the focus takes keys before the top screen, shows its hints in the
    /// footer, and gives both up to an overlay, which covers it.
    @Test func aFocusedSidePanelTakesKeysUntilAnOverlayCoversIt() {
        let (app, _, home, _) = makeApp(width: 30, height: 8)
        var panelKeys: [Key] = []
        app.sidePanel = Application.SidePanel(
            placement: { _ in .trailing(width: 10) }, render: { _, _, _ in },
            handle: { key, _ in
                guard key == .enter else { return false }
                panelKeys.append(key)
                return true
            },
            keyHints: { [KeyHint("↑", "pick")] })
        app.render()
        app.send(.enter)
        #expect(panelKeys.isEmpty, "without the focus, Enter is the screen's")
        #expect(app.stack.ids == ["home", "sheet"])
        app.send(.escape)

        app.sidePanelHasFocus = true
        app.render()
        #expect(app.sidePanelTakesKeys)
        #expect(app.textLines.last?.hasPrefix("↑ pick  q quit") == true)
        app.send(.enter)
        #expect(panelKeys == [.enter] && app.stack.ids == ["home"], "the panel took Enter")
        app.send(.character("q"))
        #expect(app.isFinished, "keys the panel leaves go on to the global keys")

        let (covered, _, _, _) = makeApp(width: 30, height: 8)
        covered.sidePanel = app.sidePanel
        covered.sidePanelHasFocus = true
        covered.stack.present(
            RecordingScreen("help", recorder: Recorder(), presentation: .overlay(maxWidth: 20)))
        covered.render()
        #expect(!covered.sidePanelTakesKeys, "an overlay covers the panel")
        _ = home
    }

    @Test func aSheetIsAtLeastItsMinimumHeightWhileThereIsRoom() {
        let frame = Rect(x: 0, y: 0, width: 100, height: 30)
        let screens = Rect(x: 0, y: 2, width: 100, height: 10)
        #expect(Presentation.sheet(heightPercent: 20).rect(screens: screens, frame: frame).height == 3)
        #expect(
            Presentation.sheet(heightPercent: 20, minHeight: 5).rect(screens: screens, frame: frame).height
                == 5)
        #expect(
            Presentation.sheet(heightPercent: 60, minHeight: 5).rect(screens: screens, frame: frame).height
                == 6,
            "the share wins when it is taller")
        let short = Rect(x: 0, y: 2, width: 100, height: 4)
        #expect(
            Presentation.sheet(heightPercent: 20, minHeight: 5).rect(screens: short, frame: frame).height
                == 4,
            "never taller than the screens' area")
    }

    @Test func aHiddenSidePanelTakesNoKeys() {
        let (app, _, _, _) = makeApp(width: 30, height: 8)
        app.sidePanel = Application.SidePanel(
            placement: { _ in nil }, render: { _, _, _ in }, handle: { _, _ in true })
        app.sidePanelHasFocus = true
        app.render()
        #expect(!app.sidePanelTakesKeys)
        app.send(.enter)
        #expect(app.stack.ids == ["home", "sheet"])
    }

    /// Keys are routed by the frame as it is now, not as last drawn: a panel shown by one key
    /// takes the next, though no frame was drawn between them.
    @Test func aPanelShownBetweenTwoKeysTakesTheSecond() {
        let (app, _, _, _) = makeApp(width: 30, height: 8)
        let shown = Recorder()
        let taken = Recorder()
        app.sidePanel = Application.SidePanel(
            placement: { _ in shown.events.isEmpty ? nil : .trailing(width: 10) }, render: { _, _, _ in },
            handle: { key, _ in
                taken.events.append("\(key)")
                return true
            })
        app.sidePanelHasFocus = true
        app.render()
        #expect(!app.sidePanelTakesKeys)
        shown.events.append("shown")
        #expect(app.sidePanelTakesKeys)
        app.send(.enter)
        #expect(taken.events.count == 1)
        #expect(app.stack.ids == ["home"], "the panel took Enter")
    }

    @Test func onlyTheTopScreenGetsKeys() {
        let (app, _, home, _) = makeApp()
        app.send(.enter)
        app.send(.enter)  // the sheet does not handle Enter; home must not see it
        #expect(app.stack.ids == ["home", "sheet"])
        _ = home
    }

    @Test func globalKeysRunWhenTheScreenDoesNot() {
        let (app, _, _, _) = makeApp()
        #expect(!app.isFinished)
        #expect(app.send(.character("q")))
        #expect(app.isFinished)
        #expect(!app.send(.character("z")))
    }

    @Test func ctrlCQuitsByDefault() {
        let (app, _, _, _) = makeApp()
        app.send(Key(name: "Ctrl-C")!)
        #expect(app.isFinished)
    }

    @Test func tooSmallShowsTheNeededSizeUntilItGrows() {
        let (app, _, _, _) = makeApp(width: 9, height: 3)
        app.render()
        #expect(app.textLines == ["  needs  ", "  10×4,  ", "have 9×3 "])
        #expect(app.textLines.joined(separator: " ").contains("have 9×3"))
        app.resize(to: Size(width: 20, height: 6))
        app.render()
        #expect(app.textLines[0] == "┌home──────────────┐")
    }

    @Test func oneByOneAndZeroSizeDoNotCrash() {
        let (app, _, _, _) = makeApp(width: 1, height: 1)
        app.minimumSize = .zero
        app.render()
        #expect(app.textLines.count == 1)
        app.resize(to: .zero)
        app.render()
        #expect(app.textLines == [])
    }

    @Test func unchangedFramesSendNothing() {
        let (app, backend, _, _) = makeApp()
        app.render()
        app.render()
        #expect(backend.lastDrawnCellCount == 0)
    }

    @Test func monochromeThemeUsesNoColors() {
        let theme = Theme.fromEnvironment(["NO_COLOR": "1"])
        #expect(theme.isMonochrome)
        #expect(!Theme.fromEnvironment(["NO_COLOR": ""]).isMonochrome)
        #expect(Theme.fromEnvironment(["TUI_ASCII": "1"]).lines == .ascii)
        let backend = TestBackend(width: 12, height: 3)
        let app = Application(
            backend: backend, root: RecordingScreen("home", recorder: Recorder()), theme: theme)
        app.render()
        for y in 0..<3 {
            for x in 0..<12 {
                #expect(backend.style(x: x, y: y).foreground == .default)
                #expect(backend.style(x: x, y: y).background == .default)
            }
        }
        #expect(backend.style(x: 0, y: 2).isReverse)  // the hint key stands out by reverse video
    }

    @Test func scheduledWakeupsRunWhenDue() {
        let (app, _, _, _) = makeApp()
        var fired = 0
        let start = ContinuousClock.now
        app.schedule(at: start + .seconds(5)) { fired += 1 }
        let cancelled = app.schedule(at: start + .seconds(1)) { fired += 100 }
        app.cancelWakeup(cancelled)
        #expect(app.nextDeadline == start + .seconds(5))
        app.runDueWakeups(now: start + .seconds(4))
        #expect(fired == 0)
        app.runDueWakeups(now: start + .seconds(5))
        #expect(fired == 1)
        #expect(app.nextDeadline == nil)
    }

    @Test func requestRedrawIsSafeFromAnyThread() async {
        let (app, _, _, _) = makeApp()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { app.requestRedraw() } }
        }
        app.renderIfNeeded()
        #expect(app.textLines[0].hasPrefix("┌home"))
    }
}
