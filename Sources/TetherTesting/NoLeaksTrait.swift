import Testing
import Tether

/// A test trait that fails a test — or each test of a suite — that leaks.
///
/// The test runs with a ledger of its own as `Ledger.current`, on a ``ManualClock``. After the
/// body returns — or throws: the error fails the test, and what it leaked is reported all the
/// same — the trait waits, while something of the test is still there (for a second, or longer
/// on a busy machine), for the tasks the test started to finish and for what is winding down on
/// other threads, lets the grace period pass on the manual clock, and records one issue for each
/// of:
/// - a leak: an owner that ended but outlived its end (or something of it did), with its
///   ``LeakReport`` as the comment;
/// - an owner the test made that never ended and is still alive, with its bindings: nothing will
///   end it now. Usually a retain cycle — the owner keeps itself through a closure or a task it
///   holds — which no verdict sees, since an owner that never deinitializes never ends;
/// - bindings with no owner that the test made and left alive, in one issue;
/// - when nothing else was found, a task the test started that was still running at the end of
///   the wait: what it makes from then on is not judged.
///
/// ```swift
/// @Test(.noLeaks) @MainActor func dismissingTheSheetLeavesNothingBehind() {
///     let model = OrientationViewModel(isPortrait: Just(true), center: NotificationCenter())
///     model.bag.dispose()
/// }
///
/// @Suite(.noLeaks(gracePeriod: .seconds(1))) struct ViewModelTests { … }
/// ```
///
/// What the test made is what recorded into its ledger: owners and bindings made by the test's
/// own tasks — its body and every task started from it, which inherit `Ledger.current`, even
/// after the body returned — and by the work Tether runs for them elsewhere (an `asyncSink`
/// body runs with the ledger of its subscription, wherever the value was sent from). An owner
/// made before the test records into the ledger it was made in, and so do bindings on its
/// lifetime: neither is checked. A suite's instance is made for each test, inside it, and
/// released when the test returns, so what it holds goes with it. A long-lived object the test
/// happens to make first (a lazily made `static let`) is the test's, and is reported: make it
/// with a ledger of its own (`DisposeBag(ledger: .shared)`). Thread-safe; each test gets its own
/// ledger.
///
/// Work off the test's tasks is not the test's: a `Task.detached`, a Dispatch queue, a `Thread`
/// or a framework's callback has no task-local value of the test's, so what it makes records
/// into `Ledger.shared`, where this trait does not look. To judge it as well, use
/// ``Testing/Trait/noLeaks(gracePeriod:alsoJudging:)`` with `.shared`.
public struct NoLeaksTrait: TestTrait, SuiteTrait, TestScoping {
    /// How long after an owner's end the verdict waits, on the test's manual clock.
    public let gracePeriod: Duration
    /// A ledger judged as well over each test's window (`Ledger.shared`), or nil.
    public let alsoJudging: Ledger?

    /// On a suite, the trait applies to each of its tests.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let tracker = LeakTracker(gracePeriod: gracePeriod)
        var window: JudgedWindow?
        if let alsoJudging { window = await JudgedWindow.open(on: alsoJudging) }
        let (tasks, thrown) = await TestTasks.run { try await tracker.run(function) }
        await Self.waitForWhatIsOnItsWayOut {
            let counters = tracker.ledger.counters
            return counters.owners == 0 && counters.ending == 0 && counters.entries == 0
                && !tasks.areRunning && window?.made().leftNothingAlive != false
        }
        let result = tracker.report()
        var found = result.leaks.map(\.report.description)
        found += result.leftAlive.map(LeakTracker.Result.leftAlive)
        let unowned = result.entries.filter { $0.owner == nil }
        if !unowned.isEmpty { found.append(LeakTracker.Result.leftAlive(unowned)) }
        if let window { found += await window.close() }
        if found.isEmpty, tasks.areRunning {
            found.append(
                "a task the test started was still running when the trait stopped waiting for it: "
                    + "what it makes from now on is not judged\n"
                    + "   fix: cancel the task, or await it, before the test returns")
        }
        for text in found {
            Issue.record(Comment(rawValue: text), sourceLocation: test.sourceLocation)
        }
        if let thrown { throw thrown }
    }

    /// Yields, then naps, until `isSettled` — while something of the test is still there: a task
    /// still running or winding down on another thread, an owner it is releasing — for a second
    /// and a thousand checks at least: on a busy machine, a check may wait long for a thread, and
    /// what is on its way out for as long. What really stays, stays, and is reported.
    private static func waitForWhatIsOnItsWayOut(until isSettled: () -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(1)
        var checks = 0
        while !isSettled(), checks < 1_000 || ContinuousClock.now < deadline {
            checks += 1
            if checks < 100 {
                await Task.yield()
            } else {
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
    }
}

extension Trait where Self == NoLeaksTrait {
    /// Fails the test (or each test of the suite) if anything it made leaks, or is left alive: a
    /// 300 ms grace period on the test's own manual clock.
    public static var noLeaks: Self { NoLeaksTrait(gracePeriod: .milliseconds(300), alsoJudging: nil) }

    /// Fails the test (or each test of the suite) if anything it made leaks, or is left alive,
    /// judged `gracePeriod` after each owner's end on the test's own manual clock.
    public static func noLeaks(gracePeriod: Duration) -> Self {
        NoLeaksTrait(gracePeriod: gracePeriod, alsoJudging: nil)
    }

    /// Fails the test (or each test of the suite) if anything it made leaks, or is left alive —
    /// in its own ledger and, over the test's window, in `ledger`: what work off the test's tasks
    /// made there (a `Task.detached`, a Dispatch queue, a `Thread`, which record into
    /// `Ledger.shared`).
    ///
    /// ```swift
    /// @Suite(.noLeaks(alsoJudging: .shared)) struct UploaderTests { … }
    /// ```
    ///
    /// In `ledger`, what the test made is what was made there while it ran: owners, and bindings
    /// with no owner, new since the test began, judged on that ledger's clock — the trait waits
    /// up to its grace period for the verdict on an owner that ended. The work must be done by the
    /// time the test returns: await the detached task, or wait for the queue. Tests judging a
    /// ledger take turns, process-wide, whatever their suite. The ledger being the whole
    /// process's, whatever else records into it meanwhile — a test without this trait running in
    /// parallel — is judged with the test: run such tests apart (`swift test --filter`) for a
    /// verdict that is the test's alone.
    ///
    /// - Parameters:
    ///   - gracePeriod: The grace period of the test's own ledger.
    ///   - ledger: The ledger also judged, `.shared` for work off the test's tasks.
    public static func noLeaks(
        gracePeriod: Duration = .milliseconds(300), alsoJudging ledger: Ledger
    ) -> Self {
        NoLeaksTrait(gracePeriod: gracePeriod, alsoJudging: ledger)
    }
}
