import Testing
import Tether

/// A test trait that fails a test — or each test of a suite — that leaks.
///
/// The test runs with a ledger of its own as `Ledger.current`, on a ``ManualClock``. After the
/// body returns — or throws: the error fails the test, and what it leaked is reported all the
/// same — the trait waits (briefly, and only while something of the test is still there)
/// for tasks winding down on other threads, lets the grace period pass on the manual clock, and
/// records one issue for each of:
/// - a leak: an owner that ended but outlived its end (or something of it did), with its
///   ``LeakReport`` as the comment;
/// - an owner the test made that never ended and is still alive, with its bindings: nothing will
///   end it now. Usually a retain cycle — the owner keeps itself through a closure or a task it
///   holds — which no verdict sees, since an owner that never deinitializes never ends;
/// - bindings with no owner that the test made and left alive, in one issue.
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
/// What the test made is what recorded into its ledger: owners and bindings made while the test
/// ran. An owner made before the test records into the ledger it was made in, and so do bindings
/// on its lifetime: neither is checked. A suite's instance is made for each test, inside it, and
/// released when the test returns, so what it holds goes with it. A long-lived object the test
/// happens to make first (a lazily made `static let`) is the test's, and is reported: make it
/// with a ledger of its own (`DisposeBag(ledger: .shared)`). Thread-safe; each test gets its own
/// ledger.
public struct NoLeaksTrait: TestTrait, SuiteTrait, TestScoping {
    /// How long after an owner's end the verdict waits, on the test's manual clock.
    public let gracePeriod: Duration

    /// On a suite, the trait applies to each of its tests.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let tracker = LeakTracker(gracePeriod: gracePeriod)
        var thrown: (any Error)?
        do { try await tracker.run(function) } catch { thrown = error }
        await NoLeaksTrait.waitForWhatIsOnItsWayOut(in: tracker.ledger)
        let snapshot = tracker.settle()
        var found = snapshot.leaks.map(\.report.description)
        found += snapshot.owners.filter { $0.state == .alive }.map(NoLeaksTrait.leftAlive)
        if !snapshot.unowned.isEmpty { found.append(NoLeaksTrait.leftAlive(snapshot.unowned)) }
        for text in found {
            Issue.record(Comment(rawValue: text), sourceLocation: test.sourceLocation)
        }
        if let thrown { throw thrown }
    }

    /// Yields, then naps, while something the test made is still there — a task winding down on
    /// another thread, an owner it is releasing — for a second at most: what really stays, stays,
    /// and is reported.
    static func waitForWhatIsOnItsWayOut(in ledger: Ledger) async {
        func isSettled() -> Bool {
            let counters = ledger.counters
            return counters.owners == 0 && counters.ending == 0 && counters.entries == 0
        }
        for _ in 0..<1_000 where !isSettled() { await Task.yield() }
        let deadline = ContinuousClock.now + .seconds(1)
        while !isSettled(), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// `Model#1 left alive: …`, its bindings, and the usual fix.
    static func leftAlive(_ owner: LedgerSnapshot.Owner) -> String {
        var lines = [
            "\(owner.id) left alive: never ended, still alive after the test (tracked at \(owner.site))"
        ]
        lines += branches(owner.entries) { $0.bound ? "bound, " : "not bound to its owner, " }
        lines.append(
            "   fix: a retain cycle? capture the owner weakly (`[weak self]`) in the closures and tasks "
                + "it keeps — or end it (`bag.dispose()`) before the test returns")
        return lines.joined(separator: "\n")
    }

    /// `2 bindings with no owner left alive after the test`, each, and the usual fix.
    static func leftAlive(_ unowned: [LedgerSnapshot.Entry]) -> String {
        let count = unowned.count == 1 ? "1 binding" : "\(unowned.count) bindings"
        var lines = ["\(count) with no owner left alive after the test"]
        lines += branches(unowned) { _ in "" }
        lines.append("   fix: store each in a bag that ends before the test returns, or cancel it")
        return lines.joined(separator: "\n")
    }

    private static func branches(
        _ entries: [LedgerSnapshot.Entry], binding: (LedgerSnapshot.Entry) -> String
    ) -> [String] {
        entries.enumerated().map { index, entry in
            let branch = index == entries.count - 1 ? "╰─" : "├─"
            let values = "\(entry.deliveries) value\(entry.deliveries == 1 ? "" : "s") delivered"
            return "\(branch) \(entry.kind.rawValue) at \(entry.site), \(binding(entry))\(values)"
        }
    }
}

extension Trait where Self == NoLeaksTrait {
    /// Fails the test (or each test of the suite) if anything it made leaks, or is left alive: a
    /// 300 ms grace period on the test's own manual clock.
    public static var noLeaks: Self { NoLeaksTrait(gracePeriod: .milliseconds(300)) }

    /// Fails the test (or each test of the suite) if anything it made leaks, or is left alive,
    /// judged `gracePeriod` after each owner's end on the test's own manual clock.
    public static func noLeaks(gracePeriod: Duration) -> Self { NoLeaksTrait(gracePeriod: gracePeriod) }
}
