import Testing
import Tether

/// A test trait that fails a test — or each test of a suite — that leaks.
///
/// The test runs with a ledger of its own as `Ledger.current`, on a ``ManualClock``. After the
/// body returns, the trait waits (briefly, and only while some owner is still on its way out) for
/// tasks winding down on other threads, lets the grace period pass on the manual clock, and
/// records one issue per leak, with the ``LeakReport`` as its comment.
///
/// ```swift
/// @Test(.noLeaks) func dismissingTheSheetLeavesNothingBehind() {
///     let model = OrientationViewModel(isPortrait: Just(true), center: NotificationCenter())
///     model.bag.dispose()
/// }
///
/// @Suite(.noLeaks(gracePeriod: .seconds(1))) struct ViewModelTests { … }
/// ```
///
/// Bindings made on a lifetime that records into another ledger (one passed explicitly) are not
/// checked. Thread-safe; each test gets its own ledger.
public struct NoLeaksTrait: TestTrait, SuiteTrait, TestScoping {
    /// How long after an owner's end the verdict waits, on the test's manual clock.
    public let gracePeriod: Duration

    /// On a suite, the trait applies to each of its tests.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let tracker = LeakTracker(gracePeriod: gracePeriod)
        try await tracker.run(function)
        await NoLeaksTrait.waitForOwnersOnTheirWayOut(in: tracker.ledger)
        for leak in tracker.report().leaks {
            Issue.record(Comment(rawValue: leak.report.description), sourceLocation: test.sourceLocation)
        }
    }

    /// Yields, then naps, while an owner has ended but something of it is still going — a task
    /// winding down on another thread — for a second at most: a real leak stays, and the verdict
    /// that follows reports it.
    static func waitForOwnersOnTheirWayOut(in ledger: Ledger) async {
        for _ in 0..<1_000 where ledger.counters.ending > 0 { await Task.yield() }
        let deadline = ContinuousClock.now + .seconds(1)
        while ledger.counters.ending > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

extension Trait where Self == NoLeaksTrait {
    /// Fails the test (or each test of the suite) if anything it made leaks: a 300 ms grace
    /// period on the test's own manual clock.
    public static var noLeaks: Self { NoLeaksTrait(gracePeriod: .milliseconds(300)) }

    /// Fails the test (or each test of the suite) if anything it made leaks, judged `gracePeriod`
    /// after each owner's end on the test's own manual clock.
    public static func noLeaks(gracePeriod: Duration) -> Self { NoLeaksTrait(gracePeriod: gracePeriod) }
}
