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
        updates.sink { [weak self] _ in _ = self }.store(in: leaky ? session.bag : bag)
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
        #expect(ledger.snapshot().growth.count == 1, "the helper checkpointed after each run")
    }

    @Test func theBodyRunsOnTheCurrentLedgerByDefaultAndComparesWithItsStateBefore() async {
        let ledger = Ledger(clock: ManualClock())
        let updates = PassthroughSubject<Int, Never>()
        let session = Ledger.$current.withValue(ledger) { Session() }
        for _ in 0..<4 { updates.sink { _ in }.store(in: session.bag) }  // there before: not growth
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
