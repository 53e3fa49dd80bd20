import Synchronization
import Testing
import Tether
import TetherTesting

/// An owner the way users write one.
private final class Model: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// An owner in a retain cycle, the way users make one: its subscription, in its own bag, keeps it
/// through the closure. It never deinitializes, so it never ends, and no verdict ever sees it.
private final class CountingModel {
    let bag = DisposeBag()
    var count = 0

    init(_ subject: PassthroughSubject<Int, Never>) {
        bag.track(self)
        subject.sink(boundTo: bag) { _ in self.count += 1 }
    }
}

/// The same cycle through a task: a loop that captures its owner strongly.
private final class LoopingModel: Sendable {
    let bag = DisposeBag()
    let count = Atomic(0)

    init(_ ticks: AsyncStream<Int>) {
        bag.track(self)
        Task(boundTo: bag) {
            for await _ in ticks { self.count.add(1, ordering: .relaxed) }
        }
    }
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
        Task(boundTo: model.bag) {
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

    /// A body that leaks and then throws (a failed `#require` further on) fails with its error,
    /// and the leak is reported beside it.
    @Test func aLeakIsReportedWhenTheBodyThrows() async throws {
        struct SetUpFailed: Error {}
        let kept = Box<Model>()
        let found = try await issues {
            let model = Model()
            kept.value = model  // outlives its end
            model.bag.end()
            throw SetUpFailed()
        }
        #expect(found.count == 2, "\(found)")
        #expect(found.contains { $0.hasPrefix("Model#1 leaked: alive 300ms after its end") })
        #expect(kept.value != nil)
    }

    /// A retain cycle never ends, so no verdict sees it: the trait reports the owner the test made
    /// and left alive, with its bindings.
    @Test func anOwnerInARetainCycleIsReportedAsLeftAlive() async throws {
        let kept = Box<DisposeBag>()
        let found = try await issues {
            let subject = PassthroughSubject<Int, Never>()
            let model = CountingModel(subject)
            subject.send(1)
            kept.value = model.bag  // to break the cycle after the check
        }
        #expect(found.count == 1, "\(found)")
        let lines = found.first?.split(separator: "\n").map(String.init) ?? []
        #expect(
            lines.first?.hasPrefix(
                "CountingModel#1 left alive: never ended, still alive after the test (tracked at NoLeaksTraitTests.swift:"
            ) == true)
        #expect(lines.dropFirst().first?.hasPrefix("╰─ subscription at NoLeaksTraitTests.swift:") == true)
        #expect(lines.dropFirst().first?.hasSuffix(", bound, 1 value delivered") == true)
        #expect(lines.last?.contains("capture the owner weakly") == true)
        kept.value?.dispose()
    }

    @Test func anOwnerKeptByItsOwnLoopIsReportedAsLeftAlive() async throws {
        let kept = Box<DisposeBag>()
        let found = try await issues {
            let (ticks, continuation) = AsyncStream.makeStream(of: Int.self)
            let model = LoopingModel(ticks)
            continuation.yield(1)
            kept.value = model.bag
        }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("LoopingModel#1 left alive") == true)
        #expect(found.first?.contains("╰─ task at NoLeaksTraitTests.swift:") == true)
        kept.value?.dispose()
    }

    /// A binding with no owner that the test keeps past its end is reported too.
    @Test func aBindingWithNoOwnerLeftAliveIsReported() async throws {
        let kept = Box<Lifetime>()
        let found = try await issues {
            let lifetime = Lifetime()  // no owner tracks it
            Task(boundTo: lifetime) { await untilCancelled() }
            kept.value = lifetime
        }
        #expect(found.count == 1, "\(found)")
        #expect(
            found.first?.hasPrefix(
                "1 binding with no owner left alive after the test\n╰─ task at NoLeaksTraitTests.swift:")
                == true)
        kept.value?.end()
    }

    /// What the test did not make is not its leak: an owner made before it, alive after it, and a
    /// binding the test made on that owner's bag — both recorded in the ledger the owner was
    /// made in.
    @Test func anOwnerMadeBeforeTheTestIsNotReported() async throws {
        let test = try #require(Test.current)
        let earlier = Model()
        try await NoLeaksTrait.noLeaks.provideScope(for: test, testCase: Test.Case.current) {
            PassthroughSubject<Int, Never>().sink(boundTo: earlier.bag) { _ in }
            #expect(Ledger.current.counters.owners == 0)
        }
        #expect(earlier.bag.ledger.counters.subscriptions >= 1)
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
        model.bag.onEnd {}
    }

    @Test func andLeavesNothingBehind() {
        let model = Model()
        PassthroughSubject<Int, Never>().sink(boundTo: model.bag) { _ in }
        #expect(Ledger.current.counters.owners == 1)
    }
}

/// A suite whose instance, made for each test, holds owners: they go with it when the test
/// returns, so they are not left alive.
@Suite(.noLeaks) struct ASuiteThatHoldsOwners {
    private let model = Model()
    private let subject = PassthroughSubject<Int, Never>()

    init() {
        subject.sink(boundTo: model.bag) { _ in }
    }

    @Test func itsOwnersAreTheTestsAndGoWithIt() {
        #expect(Ledger.current.counters.owners == 1, "made in the test's ledger")
        subject.send(1)
    }
}

/// The same with a class, whose instance could be kept longer.
@Suite(.noLeaks) final class AClassSuiteThatHoldsOwners {
    private let model = Model()

    @Test func itsOwnersGoWithIt() {
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
