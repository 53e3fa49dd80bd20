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

    // The atomic gate a fuse's subscription runs: the same transitions, applied to one word.

    @Test func theAtomicGateAdmitsOnlyWhileSubscribed() {
        let gate = SharedGate()
        #expect(!gate.enter(), "no value before upstream's subscription")
        #expect(gate.leave() == .none)
        #expect(gate.leave() == .none, "the hand-over of the subscription leaves")
        #expect(gate.subscribe())
        #expect(!gate.subscribe(), "upstream subscribes once")
        #expect(gate.enter())
        #expect(gate.leave() == .none)
        #expect(gate.terminate(leaving: .release) == true, "idle: the caller settles")
        #expect(gate.terminate(leaving: .finish) == nil, "it ends once")
        #expect(!gate.enter())
        #expect(gate.leave() == .none, "a late value leaves without settling")
    }

    @Test func theAtomicGateLeavesABlowDuringNestedDeliveriesToTheLastToLeave() {
        let gate = SharedGate()
        _ = gate.leave()
        #expect(gate.subscribe())
        #expect(gate.enter())  // outer
        #expect(gate.enter())  // a re-entrant send
        #expect(gate.terminate(leaving: .finish) == false)
        #expect(!gate.enter(), "a value sent after the blow")
        #expect(gate.leave() == .none)
        #expect(gate.leave() == .none)
        #expect(gate.leave() == .finish, "the outer delivery settles")
        gate.settle()
        #expect(gate.current.pending == .none)
        #expect(gate.current.status == .terminal)
        #expect(!gate.enter())
        #expect(gate.leave() == .none, "a value after the settling")
    }

    @Test func exactlyOneThreadSettlesARaceOfValuesAndABlow() async {
        for _ in 0..<200 {
            let gate = SharedGate()
            _ = gate.leave()
            #expect(gate.subscribe())
            let settlers = Recorder<String>()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<50 {
                            _ = gate.enter()
                            if gate.leave() != .none {
                                gate.settle()
                                settlers.record("delivery")
                            }
                        }
                    }
                }
                group.addTask {
                    if gate.terminate(leaving: .finish) == true { settlers.record("blow") }
                }
            }
            #expect(settlers.events.count == 1, "settled by \(settlers.events)")
            #expect(gate.current.deliveries == 0)
        }
    }
}

/// The noncopyable gate in a class, as a fuse's subscription holds it, so that tests (and tasks)
/// can share it; each method calls the gate's own.
private final class SharedGate: Sendable {
    private let gate = AtomicFuseGate()

    var current: FuseGate { gate.current }
    func enter() -> Bool { gate.enter() }
    func leave() -> FuseGate.Pending { gate.leave() }
    func settle() { gate.settle() }
    func subscribe() -> Bool { gate.subscribe() }
    func terminate(leaving pending: FuseGate.Pending) -> Bool? { gate.terminate(leaving: pending) }
}
