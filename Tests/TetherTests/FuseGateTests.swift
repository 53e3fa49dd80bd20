import Testing

@testable import Tether

@Suite struct FuseGateTests {
    private func subscribed() -> FuseGate {
        let (idle, settle) = FuseGate.initial.leaving()
        #expect(settle == .none)
        return idle.subscribing()!
    }

    @Test func aValueIsAdmittedOnlyWhileSubscribed() {
        #expect(FuseGate.initial.status == .awaitingUpstream)
        #expect(FuseGate.initial.deliveries == 1, "the hand-over of the subscription is a delivery")
        #expect(!FuseGate.initial.entering().admitted)
        let gate = subscribed()
        #expect(gate.subscribing() == nil)
        let entered = gate.entering()
        #expect(entered.admitted)
        #expect(entered.next.deliveries == 1)
        #expect(entered.next.leaving() == (gate, .none))
        let ended = gate.terminating(leaving: .release)!.next
        #expect(!ended.entering().admitted)
    }

    @Test func endingWhileNoDeliveryRunsSettlesAtOnceAndOnlyOnce() {
        let (ended, idle) = subscribed().terminating(leaving: .finish)!
        #expect(idle)
        #expect(ended.status == .terminal)
        #expect(ended.pending == .none)
        #expect(ended.terminating(leaving: .release) == nil)
        let late = ended.entering()
        #expect(!late.admitted)
        #expect(late.next.leaving().settle == .none, "a late value leaves without settling again")
    }

    @Test func aBlowDuringNestedDeliveriesIsSettledByTheLastToLeave() {
        let outer = subscribed().entering().next
        let inner = outer.entering().next  // a re-entrant send
        let (blown, idle) = inner.terminating(leaving: .finish)!
        #expect(!idle)
        let late = blown.entering()  // a value sent after the blow, on another thread
        #expect(!late.admitted)
        let (afterLate, lateSettle) = late.next.leaving()
        #expect(lateSettle == .none)
        let (afterInner, innerSettle) = afterLate.leaving()
        #expect(innerSettle == .none)
        let (afterOuter, outerSettle) = afterInner.leaving()
        #expect(outerSettle == .finish)
        #expect(afterOuter.deliveries == 0)
        #expect(afterOuter.terminating(leaving: .release) == nil)
        let settled = afterOuter.settled()
        #expect(settled.pending == .none)
        #expect(settled.status == .terminal)
        #expect(settled.entering().next.leaving().settle == .none, "a value after the settling")
    }

    @Test func onlyTheFirstEndDecidesWhatTheLastDeliveryDoes() {
        let delivering = subscribed().entering().next
        let (cancelled, _) = delivering.terminating(leaving: .release)!
        #expect(cancelled.terminating(leaving: .finish) == nil)
        #expect(cancelled.leaving().settle == .release)
    }

    @Test func aBlowDuringTheHandOverFinishesAfterIt() {
        let (blown, idle) = FuseGate.initial.terminating(leaving: .finish)!
        #expect(!idle)
        #expect(blown.subscribing() == nil)
        #expect(blown.leaving().settle == .finish)
    }
}
