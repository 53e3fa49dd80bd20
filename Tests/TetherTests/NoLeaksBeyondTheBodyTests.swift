import Foundation
import TestSupport
import Testing
import Tether
import TetherTesting

/// Runs `body` in `trait`'s scope, as `@Test(trait)` would; the comments of the issues it recorded
/// (each expected), none if it recorded none.
func issues(
    of trait: NoLeaksTrait = .noLeaks, _ body: @escaping @Sendable () async throws -> Void
) async throws -> [String] {
    let test = try #require(Test.current)
    let comments = Slot<[String]>([])
    try await withKnownIssue(isIntermittent: true) {
        try await trait.provideScope(for: test, testCase: Test.Case.current, performing: body)
    } matching: { issue in
        comments.put((comments.value ?? []) + [issue.comments.map(\.rawValue).joined(separator: "\n")])
        return true
    }
    return comments.value ?? []
}

/// What the trait sees beyond the body's own statements: its tasks after it returned, and what
/// Tether hands to other threads for it.
@Suite struct NoLeaksBeyondTheBodyTests {
    /// A task the body started makes its leak after the body returned (after a wait of its own,
    /// as for a reply): the trait waits for the test's tasks before it judges.
    @Test func aLeakATaskOfTheTestMakesAfterTheBodyReturnedIsReported() async throws {
        let kept = Slot<TrackedOwner>()
        let found = try await issues {
            Task {
                try? await Task.sleep(for: .milliseconds(20))
                let model = TrackedOwner()
                kept.put(model)  // outlives its end
                model.bag.end()
            }
        }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("TrackedOwner#1 leaked: alive 300ms after its end") == true)
        #expect(kept.value != nil)
    }

    @Test func aRetainCycleATaskOfTheTestMakesAfterTheBodyReturnedIsReported() async throws {
        let kept = Slot<SelfKeeping>()
        let found = try await issues {
            Task {
                try? await Task.sleep(for: .milliseconds(20))
                kept.put(SelfKeeping())
            }
        }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("SelfKeeping#1 left alive: never ended") == true)
        kept.take()?.letGo()
    }

    /// A task the test started and left running past the wait: what it makes from then on would
    /// not be judged, so with nothing else found the test does not pass in silence.
    @Test func aTaskOfTheTestStillRunningAfterTheWaitIsReported() async throws {
        let (ticks, continuation) = AsyncStream.makeStream(of: Int.self)
        let found = try await issues {
            Task { for await _ in ticks {} }
        }
        continuation.finish()
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("a task the test started was still running") == true)
    }

    /// An asyncSink body runs in a task made where the value was sent — here a Dispatch queue,
    /// with no ledger of the test's — yet records into the ledger current at the subscription.
    @Test func anAsyncSinkBodyForAValueSentFromAnotherThreadIsTheTests() async throws {
        let kept = Slot<TrackedOwner>()
        let found = try await issues {
            let values = Slot(PassthroughSubject<Int, Never>())
            let subscription = values.value?.asyncSink { _ in
                let model = TrackedOwner()
                kept.put(model)
                model.bag.end()
            }
            DispatchQueue.global().async { values.value?.send(1) }
            await waitUntil("the body ran") { kept.value != nil }
            subscription?.cancel()
        }
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("TrackedOwner#1 leaked: alive 300ms after its end") == true)
    }
}

/// An owner made off the test's tasks, where `Ledger.current` is `Ledger.shared`.
private final class OffTaskModel: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// Work off the test's tasks — a detached task, a Dispatch queue, a thread — records into
/// `Ledger.shared`: `.noLeaks(alsoJudging: .shared)` judges what was made there while the test ran.
///
/// The shared ledger is the process's: other tests running meanwhile may add to what is found, so
/// each test looks for its own owners' types among the issues.
@Suite struct NoLeaksAlsoJudgingTests {
    /// What one test leaves in the shared ledger, to let go of after the check.
    private struct Leftovers: Sendable {
        let leaked = Slot<OffTaskModel>()
        let cycle = Slot<SelfKeeping>()

        /// Leaks one owner (kept past its end) and leaves one in a cycle, in the current ledger.
        func make() {
            let model = OffTaskModel()
            leaked.put(model)
            model.bag.end()
            cycle.put(SelfKeeping())
        }

        func letGo() {
            leaked.take()
            cycle.take()?.letGo()
        }
    }

    /// A leak and a retain cycle made on a detached task, on a Dispatch queue and on a thread: each
    /// reported, as the test's own would be. (One test, so one window: windows on one ledger take
    /// turns.)
    @Test func whatWorkOffTheTestsTasksMadeIsJudged() async throws {
        let leftovers = [Leftovers(), Leftovers(), Leftovers()]
        let found = try await issues(of: .noLeaks(alsoJudging: .shared)) {
            await Task.detached { leftovers[0].make() }.value
            await withCheckedContinuation { done in
                DispatchQueue.global().async {
                    leftovers[1].make()
                    done.resume()
                }
            }
            await withCheckedContinuation { done in
                Thread {
                    leftovers[2].make()
                    done.resume()
                }.start()
            }
        }
        let leaks = found.filter { $0.hasPrefix("OffTaskModel#") && $0.contains(" leaked: alive ") }
        let cycles = found.filter { $0.hasPrefix("SelfKeeping#") && $0.contains(" left alive: never ended") }
        #expect(leaks.count == 3, "\(found)")
        #expect(cycles.count == 3, "\(found)")
        for leftover in leftovers { leftover.letGo() }
    }

    /// The limit, as documented: without the judged ledger, work off the test's tasks is not seen.
    @Test func withoutItWorkOffTheTestsTasksIsNotJudged() async throws {
        let test = try #require(Test.current)
        let leftovers = Leftovers()
        try await NoLeaksTrait.noLeaks.provideScope(for: test, testCase: Test.Case.current) {
            await Task.detached { leftovers.make() }.value
        }
        leftovers.letGo()
    }

    /// An owner the judged ledger had before the test, alive after it, is not the test's; nor is a
    /// binding the test made on its bag.
    @Test func whatTheJudgedLedgerHadBeforeTheTestIsNotJudged() async throws {
        let ledger = Ledger(gracePeriod: .milliseconds(10))
        let earlier = Ledger.$current.withValue(ledger) { OffTaskModel() }
        let found = try await issues(of: .noLeaks(alsoJudging: ledger)) {
            PassthroughSubject<Int, Never>().sink(boundTo: earlier.bag) { _ in }
        }
        #expect(found.isEmpty, "\(found)")
        #expect(ledger.counters.subscriptions == 1)
    }

    /// What the window made and let go of leaves nothing to report: an owner ended and released,
    /// and another released without an end.
    @Test func whatTheWindowMadeAndLetGoOfIsNotReported() async throws {
        let ledger = Ledger(gracePeriod: .milliseconds(10))
        let found = try await issues(of: .noLeaks(alsoJudging: ledger)) {
            await Task.detached {
                Ledger.$current.withValue(ledger) {
                    OffTaskModel().bag.end()
                    _ = OffTaskModel()
                }
            }.value
        }
        #expect(found.isEmpty, "\(found)")
    }

    /// Tests judging a ledger take turns: the second's window opens once the first's has closed.
    @Test func windowsTakeTurns() async throws {
        let test = try #require(Test.current)
        let ledger = Ledger(gracePeriod: .milliseconds(10))
        let events = Recorder<String>()
        let firstIsIn = Slot<Bool>()
        try await withThrowingTaskGroup { group in
            group.addTask {
                try await NoLeaksTrait.noLeaks(alsoJudging: ledger).provideScope(for: test, testCase: nil) {
                    events.record("first in")
                    firstIsIn.put(true)
                    for _ in 0..<100 { await Task.yield() }
                    events.record("first out")
                }
            }
            await waitUntil("the first window is open") { firstIsIn.value == true }
            group.addTask {
                try await NoLeaksTrait.noLeaks(alsoJudging: ledger).provideScope(for: test, testCase: nil) {
                    events.record("second in")
                }
            }
            try await group.waitForAll()
        }
        #expect(events.events == ["first in", "first out", "second in"])
    }
}
