import Synchronization
import Testing
import Tether
import TetherTesting

/// An owner the way users write one.
private final class Model: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

@Suite struct NoLeaksTraitTests {
    @Test(.noLeaks) func aTestThatLeavesNothingBehindPasses() {
        let subject = PassthroughSubject<Int, Never>()
        let model = Model()
        subject.sink(boundTo: model.bag) { _ in }
        #expect(Ledger.current.counters.subscriptions == 1, "recorded in the test's own ledger")
        #expect(Ledger.current !== Ledger.shared)
    }

    @Test(.noLeaks) func aTaskStillWindingDownWhenTheBodyReturnsIsNoLeak() {
        let model = Model()
        model.bag.task {
            await untilCancelled()
            for _ in 0..<10 { await Task.yield() }  // a little work after the cancellation
        }
    }

    @Test func theTraitRecordsOneIssuePerLeakWithItsTrace() async throws {
        let test = try #require(Test.current)
        let kept = Box<Model>()
        try await withKnownIssue {
            try await NoLeaksTrait.noLeaks.provideScope(for: test, testCase: Test.Case.current) {
                let model = Model()
                kept.value = model  // outlives its end
                model.bag.end()
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("Model#1 leaked: alive 300ms after its end") }
        }
        #expect(kept.value != nil)
    }

    @Test func theGracePeriodIsTheTraits() async throws {
        let test = try #require(Test.current)
        let seen = Box<Duration>()
        try await NoLeaksTrait.noLeaks(gracePeriod: .seconds(2)).provideScope(for: test, testCase: nil) {
            seen.value = Ledger.current.gracePeriod
        }
        #expect(seen.value == .seconds(2))
    }
}

@Suite(.noLeaks) struct ASuiteWithNoLeaks {
    @Test func eachTestGetsItsOwnLedger() {
        #expect(Ledger.current !== Ledger.shared)
        #expect(Ledger.current.counters == LedgerSnapshot.Counters())
        let model = Model()
        model.bag.onDispose {}
    }

    @Test func andLeavesNothingBehind() {
        let model = Model()
        PassthroughSubject<Int, Never>().sink(boundTo: model.bag) { _ in }
        #expect(Ledger.current.counters.owners == 1)
    }
}

/// A value a `@Sendable` closure sets for the test to read after it.
private final class Box<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)
    var value: Value? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
