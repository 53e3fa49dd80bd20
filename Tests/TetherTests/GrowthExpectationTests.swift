import Testing
import Tether
import TetherTesting

private final class Session: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

private final class SheetModel: Sendable {
    static let line: UInt = #line + 5
    let bag = DisposeBag()

    init(session: Session, updates: PassthroughSubject<Int, Never>, leaky: Bool) {
        bag.track(self)
        updates.sink { [weak self] _ in _ = self }.store(boundTo: leaky ? session.bag : bag)
    }
}

@Suite struct GrowthExpectationTests {
    @Test func aBodyThatLeavesNothingInTheSessionPasses() async {
        let ledger = Ledger(clock: ManualClock())
        let session = Ledger.$current.withValue(ledger) { Session() }
        let updates = PassthroughSubject<Int, Never>()
        await expectNoGrowth(ledger: ledger) {
            _ = SheetModel(session: session, updates: updates, leaky: false)
        }
        #expect(ledger.counters.subscriptions == 0)
    }

    @Test func aBodyThatGrowsTheSessionFailsWithTheReport() async {
        let ledger = Ledger(clock: ManualClock())
        let session = Ledger.$current.withValue(ledger) { Session() }
        let updates = PassthroughSubject<Int, Never>()
        await withKnownIssue {
            await expectNoGrowth(ledger: ledger) {
                _ = SheetModel(session: session, updates: updates, leaky: true)
            }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.hasPrefix(
                    "Session#1 grows: 3 subscriptions at GrowthExpectationTests.swift:\(SheetModel.line),")
                    && $0.rawValue.contains("1 → 2 → 3")
            }
        }
        #expect(ledger.snapshotRearmingOnChange().growth.isEmpty, "the helper takes no checkpoint")
    }

    /// The helper's runs are no repetitions of anyone's: a scope whose repetitions surround it
    /// grows as if it had not run, and the ledger's watchers hear only that scope.
    @Test func itFiresNoWatcherAndDisturbsNoScope() async {
        let ledger = Ledger(clock: ManualClock())
        let heard = Recorder<String>()
        let watch = ledger.onGrowth { heard.record("\($0.scope) \($0.counts)") }
        let session = Ledger.$current.withValue(ledger) { Session() }
        let updates = PassthroughSubject<Int, Never>()
        func visitSettings() {
            Ledger.$current.withValue(ledger) {
                _ = SheetModel(session: session, updates: updates, leaky: true)
            }
            ledger.checkpoint(scope: "settings")
        }
        visitSettings()
        visitSettings()
        await withKnownIssue {
            await expectNoGrowth(ledger: ledger) {
                updates.sink { _ in }.store(boundTo: session.bag)
            }
        }
        visitSettings()
        #expect(heard.events == ["settings [1, 2, 3]"])
        #expect(ledger.snapshotRearmingOnChange().growth.map(\.scope) == ["settings"])
        watch.cancel()
    }

    /// What other code binds at the same site of the same owner while the body runs — another
    /// test's task on the same ledger, one more each run — is not the body's.
    @Test func whatAnotherTaskBindsMeanwhileIsNotTheBodys() async {
        let ledger = Ledger(clock: ManualClock())
        let session = Ledger.$current.withValue(ledger) { Session() }
        let updates = PassthroughSubject<Int, Never>()
        let (requests, request) = AsyncStream<Void>.makeStream()
        let (replies, reply) = AsyncStream<Void>.makeStream()
        let bystander = Task {
            let updates = PassthroughSubject<Int, Never>()  // its own: a subject is not Sendable
            for await _ in requests {
                Ledger.$current.withValue(ledger) {
                    _ = SheetModel(session: session, updates: updates, leaky: true)
                }
                reply.yield()
            }
        }
        var replied = replies.makeAsyncIterator()
        await expectNoGrowth(ledger: ledger) {
            let sheet = SheetModel(session: session, updates: updates, leaky: false)
            request.yield()
            _ = await replied.next()  // the bystander grew the session during this run
            sheet.bag.dispose()
        }
        #expect(ledger.counters.subscriptions == 3, "the bystander's, one a run")
        request.finish()
        await bystander.value
    }

    @Test func theBodyRunsOnTheCurrentLedgerByDefaultAndComparesWithItsStateBefore() async {
        let ledger = Ledger(clock: ManualClock())
        let updates = PassthroughSubject<Int, Never>()
        let session = Ledger.$current.withValue(ledger) { Session() }
        for _ in 0..<4 { updates.sink { _ in }.store(boundTo: session.bag) }  // there before: not growth
        var runs = 0
        await Ledger.$current.withValue(ledger) {
            await expectNoGrowth(repetitions: 2) {
                runs += 1
                #expect(Ledger.current === ledger)
                _ = SheetModel(session: session, updates: updates, leaky: false)
            }
        }
        #expect(runs == 2)
    }

    @Test func aSiteThatGrewInSomeRunsButNotAllPasses() async {
        let ledger = Ledger(clock: ManualClock())
        let session = Ledger.$current.withValue(ledger) { Session() }
        let updates = PassthroughSubject<Int, Never>()
        var run = 0
        await expectNoGrowth(repetitions: 3, ledger: ledger) {
            run += 1
            _ = SheetModel(session: session, updates: updates, leaky: run != 2)
        }
    }
}
