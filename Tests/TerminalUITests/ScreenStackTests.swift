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
    let lifecycle: Lifecycle
    let id: String
    var title: String { id }
    let recorder: Recorder
    var presentation: Presentation
    var keys: [Key: (ScreenContext) -> Void] = [:]
    private var observation: AnyCancellable?

    init(
        _ id: String, recorder: Recorder, presentation: Presentation = .fullScreen, ledger: Ledger = .current
    ) {
        lifecycle = Lifecycle(ledger: ledger)
        self.id = id
        self.recorder = recorder
        self.presentation = presentation
        observation = lifecycle.observe(receiveCurrent: false) { [id] state in
            MainActor.assumeIsolated { recorder.events.append("\(id).\(state)") }
        }
        _ = lifecycle.lifetime.onEnd { [id] in
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

    // MARK: Checkpoints

    /// Presents a screen that stores one subscription in `session`'s bag, and dismisses it: one
    /// visit of a screen that leaves something behind in a long-lived owner.
    private func visit(
        _ stack: ScreenStack, _ session: Session?, ledger: Ledger, presentation: Presentation = .fullScreen,
        id: String = "sheet"
    ) {
        let screen = RecordingScreen(id, recorder: Recorder(), presentation: presentation, ledger: ledger)
        stack.present(screen)
        session?.keepOneMore()
        stack.dismiss(screen)
    }

    /// Each dismissal is a repetition of the dismissed screen, scoped by its id: visits of other
    /// screens between them neither count nor end the growth.
    @Test func aDismissalIsARepetitionOfTheDismissedScreensScope() {
        let ledger = Ledger(clock: ManualClock())
        let session = Session(ledger: ledger)
        let stack = ScreenStack(root: RecordingScreen("home", recorder: Recorder(), ledger: ledger))
        for _ in 0..<3 {
            visit(stack, session, ledger: ledger, id: "accumulation")
            visit(stack, nil, ledger: ledger, id: "livedata")
        }
        #expect(ledger.snapshotRearmingOnChange().growth.map(\.scope) == ["accumulation"])
        #expect(ledger.snapshotRearmingOnChange().growth.map(\.counts) == [[1, 2, 3]])
        visit(stack, nil, ledger: ledger, id: "livedata")
        #expect(ledger.snapshotRearmingOnChange().growth.count == 1)
    }

    /// Each dismissal is a repetition: three visits that each leave one more subscription in a
    /// long-lived owner make its site grow, with no checkpoint of the test's own.
    @Test func everyDismissalCheckpointsTheDismissedScreensLedger() {
        let ledger = Ledger(clock: ManualClock())
        let session = Session(ledger: ledger)
        let stack = ScreenStack(root: RecordingScreen("home", recorder: Recorder(), ledger: ledger))
        visit(stack, session, ledger: ledger)
        visit(stack, session, ledger: ledger)
        #expect(ledger.snapshotRearmingOnChange().growth.isEmpty, "two repetitions are not enough")
        visit(stack, session, ledger: ledger)
        let growth = ledger.snapshotRearmingOnChange().growth
        #expect(growth.map(\.owner) == [session.bag.ownerID])
        #expect(growth.map(\.counts) == [[1, 2, 3]])
    }

    /// Screens dismissed together are one repetition: one checkpoint, not one per screen.
    @Test func screensDismissedTogetherAreOneCheckpoint() {
        let ledger = Ledger(clock: ManualClock())
        let session = Session(ledger: ledger)
        let stack = ScreenStack(root: RecordingScreen("home", recorder: Recorder(), ledger: ledger))
        for _ in 0..<3 {
            let a = RecordingScreen("a", recorder: Recorder(), ledger: ledger)
            stack.present(a)
            stack.present(RecordingScreen("b", recorder: Recorder(), ledger: ledger))
            session.keepOneMore()
            stack.dismiss(a)
        }
        #expect(ledger.snapshotRearmingOnChange().growth.map(\.counts) == [[1, 2, 3]])
    }

    /// Closing an overlay (help, a report) is reading, not a repetition: it leaves a growth being
    /// watched alone, where a checkpoint with a flat count would have ended it.
    @Test func dismissingAnOverlayCheckpointsNothing() {
        let ledger = Ledger(clock: ManualClock())
        let session = Session(ledger: ledger)
        let stack = ScreenStack(root: RecordingScreen("home", recorder: Recorder(), ledger: ledger))
        visit(stack, session, ledger: ledger)
        visit(stack, session, ledger: ledger)
        let help = RecordingScreen(
            "help", recorder: Recorder(), presentation: .overlay(maxWidth: 60), ledger: ledger)
        stack.present(help)
        stack.dismiss(help)
        visit(stack, session, ledger: ledger)
        #expect(ledger.snapshotRearmingOnChange().growth.map(\.counts) == [[1, 2, 3]])
        // A sheet's dismissal with nothing more kept is a flat checkpoint: the growth stops.
        let sheet = RecordingScreen("sheet", recorder: Recorder(), presentation: .sheet(), ledger: ledger)
        stack.present(sheet)
        stack.dismiss(sheet)
        #expect(ledger.snapshotRearmingOnChange().growth.isEmpty)
    }

    /// Tearing everything down (the app's end) is not a repetition.
    @Test func tearingEverythingDownCheckpointsNothing() {
        let ledger = Ledger(clock: ManualClock())
        let session = Session(ledger: ledger)
        let stack = ScreenStack(root: RecordingScreen("home", recorder: Recorder(), ledger: ledger))
        visit(stack, session, ledger: ledger)
        visit(stack, session, ledger: ledger)
        session.keepOneMore()
        stack.tearDownAll()
        #expect(ledger.snapshotRearmingOnChange().growth.isEmpty)
        withExtendedLifetime(session) {}
    }
}

/// A long-lived owner whose bag collects one more subscription at each ``keepOneMore()``: the
/// accumulation a checkpoint finds.
@MainActor
private final class Session {
    let bag: DisposeBag
    private let subject = PassthroughSubject<Int, Never>()

    init(ledger: Ledger) {
        bag = DisposeBag(ledger: ledger)
        bag.track(self)
    }

    func keepOneMore() {
        subject.sink { _ in }.store(boundTo: bag)
    }
}
