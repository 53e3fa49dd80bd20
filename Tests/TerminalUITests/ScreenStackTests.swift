import Testing
import Tether

@testable import TerminalUI

/// Records what happens to screens, in order.
@MainActor
final class Recorder {
    var events: [String] = []
}

@MainActor
final class RecordingScreen: Screen {
    let lifecycle = Lifecycle()
    let id: String
    var title: String { id }
    let recorder: Recorder
    var presentation: Presentation
    var keys: [Key: (ScreenContext) -> Void] = [:]
    private var observation: AnyCancellable?

    init(_ id: String, recorder: Recorder, presentation: Presentation = .fullScreen) {
        self.id = id
        self.recorder = recorder
        self.presentation = presentation
        observation = lifecycle.observe(receiveCurrent: false) { [id] state in
            MainActor.assumeIsolated { recorder.events.append("\(id).\(state)") }
        }
        _ = lifecycle.lifetime.add { [id] in
            MainActor.assumeIsolated { recorder.events.append("\(id).lifetimeEnded") }
        }
    }

    func render(into buffer: inout Buffer, area: Rect, theme: Theme) {
        Block(title: id, lines: theme.lines).render(into: &buffer, area: area)
    }

    func handle(_ key: Key, context: ScreenContext) -> Bool {
        guard let action = keys[key] else { return false }
        action(context)
        return true
    }

    var keyHints: [KeyHint] { [KeyHint("x", id)] }
}

extension ScreenStack {
    /// Records each teardown step in `recorder`, beside the lifecycle events.
    func recordingTeardown(in recorder: Recorder) -> ScreenStack {
        onTeardown = { recorder.events.append("\($0.screenID).\($0.step)") }
        return self
    }
}

@MainActor
@Suite struct ScreenStackTests {
    @Test func presentingResumesTheNewTopAndCoversTheOld() {
        let r = Recorder()
        let stack = ScreenStack(root: RecordingScreen("home", recorder: r))
        r.events = []
        let sheet = RecordingScreen("sheet", recorder: r)
        stack.present(sheet)
        #expect(stack.ids == ["home", "sheet"])
        #expect(r.events == ["home.started", "sheet.created", "sheet.started", "sheet.resumed"])
        #expect(stack.screens[0].lifecycle.state == .started)
    }

    @Test func dismissTearsDownInTheFixedOrderAndDeliversTheResult() {
        let r = Recorder()
        let home = RecordingScreen("home", recorder: r)
        let stack = ScreenStack(root: home).recordingTeardown(in: r)
        var result: String?
        stack.present(RecordingScreen("sheet", recorder: r)) { result = $0 as? String }
        r.events = []
        stack.dismissTop(result: "done")
        #expect(
            r.events == [
                "sheet.cancelTasks", "sheet.started", "sheet.created", "sheet.endSubscriptions",
                "sheet.destroyed", "sheet.lifetimeEnded", "sheet.dismissChildren", "sheet.release",
                "home.resumed",
            ])
        #expect(
            stack.teardownLog == [
                TeardownEvent(.cancelTasks, "sheet"), TeardownEvent(.endSubscriptions, "sheet"),
                TeardownEvent(.dismissChildren, "sheet"), TeardownEvent(.release, "sheet"),
            ])
        #expect(result == "done")
        #expect(stack.ids == ["home"])
        #expect(home.lifecycle.state == .resumed)
    }

    @Test func screensPoppedTogetherAreNeverResumed() {
        let r = Recorder()
        let stack = ScreenStack(root: RecordingScreen("home", recorder: r))
        let a = RecordingScreen("a", recorder: r)
        stack.present(a)
        stack.present(RecordingScreen("b", recorder: r))
        r.events = []
        stack.dismiss(a)
        #expect(!r.events.contains("a.resumed"))
        #expect(
            stack.teardownLog.map(\.description) == [
                "cancelTasks(a)", "endSubscriptions(a)", "dismissChildren(a)", "cancelTasks(b)",
                "endSubscriptions(b)",
                "dismissChildren(b)", "release(b)", "release(a)",
            ])
        #expect(r.events.last == "home.resumed")
        #expect(stack.ids == ["home"])
    }

    @Test func releasedScreensAreDeallocated() {
        let r = Recorder()
        let stack = ScreenStack(root: RecordingScreen("home", recorder: r))
        weak var weakSheet: RecordingScreen?
        do {
            let sheet = RecordingScreen("sheet", recorder: r)
            weakSheet = sheet
            stack.present(sheet)
        }
        #expect(weakSheet != nil)
        stack.dismissTop()
        #expect(weakSheet == nil)
    }

    @Test func theRootCannotBeDismissed() {
        let r = Recorder()
        let home = RecordingScreen("home", recorder: r)
        let stack = ScreenStack(root: home)
        #expect(!stack.dismissTop())
        stack.dismiss(home)
        #expect(stack.ids == ["home"])
        #expect(stack.teardownLog.isEmpty)
    }
}
