import Testing

@testable import Tether

@Suite struct FuseGateTests {
    private func subscribed() -> FuseGate {
        let (idle, finishes) = FuseGate.initial.leaving()
        #expect(!finishes)
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
        #expect(entered.next.leaving() == (gate, false))
        let ended = gate.ending(blown: false)!.next
        #expect(!ended.entering().admitted)
    }

    @Test func aBlowWhileNoDeliveryRunsFinishesAtOnceAndOnlyOnce() {
        let (ended, finishesNow) = subscribed().ending(blown: true)!
        #expect(finishesNow)
        #expect(ended.status == .terminal)
        #expect(!ended.finishPending)
        #expect(ended.ending(blown: false) == nil)
        #expect(ended.ending(blown: true) == nil)
        let late = ended.entering()
        #expect(!late.admitted)
        #expect(!late.next.leaving().finishes, "a late value leaves without finishing again")
    }

    @Test func aCancelOrACompletionFinishesNothing() {
        let (ended, finishesNow) = subscribed().entering().next.ending(blown: false)!
        #expect(!finishesNow)
        #expect(!ended.finishPending)
        #expect(!ended.leaving().finishes)
    }

    @Test func aBlowDuringNestedDeliveriesIsFinishedByTheLastToLeave() {
        let outer = subscribed().entering().next
        let inner = outer.entering().next  // a re-entrant send
        let (blown, finishesNow) = inner.ending(blown: true)!
        #expect(!finishesNow)
        let late = blown.entering()  // a value sent after the blow, on another thread
        #expect(!late.admitted)
        let (afterLate, lateFinishes) = late.next.leaving()
        #expect(!lateFinishes)
        let (afterInner, innerFinishes) = afterLate.leaving()
        #expect(!innerFinishes)
        let (afterOuter, outerFinishes) = afterInner.leaving()
        #expect(outerFinishes)
        #expect(afterOuter.deliveries == 0)
        #expect(!afterOuter.finishPending, "finished once")
        #expect(afterOuter.status == .terminal)
        #expect(afterOuter.ending(blown: true) == nil)
        #expect(!afterOuter.entering().next.leaving().finishes, "a value after the finish")
    }

    @Test func onlyTheFirstEndDecides() {
        let delivering = subscribed().entering().next
        let (cancelled, _) = delivering.ending(blown: false)!
        #expect(cancelled.ending(blown: true) == nil)
        #expect(!cancelled.leaving().finishes)
    }

    @Test func aBlowDuringTheHandOverFinishesAfterIt() {
        let (blown, finishesNow) = FuseGate.initial.ending(blown: true)!
        #expect(!finishesNow)
        #expect(blown.subscribing() == nil)
        #expect(blown.leaving().finishes)
    }

    // The atomic gate a fuse's subscription runs: the same transitions, applied to one word.

    @Test func theAtomicGateAdmitsOnlyWhileSubscribed() {
        let gate = SharedGate()
        #expect(!gate.enter(), "no value before upstream's subscription")
        #expect(!gate.leave())
        #expect(!gate.leave(), "the hand-over of the subscription leaves")
        #expect(gate.subscribe())
        #expect(!gate.subscribe(), "upstream subscribes once")
        #expect(gate.enter())
        #expect(!gate.leave())
        #expect(gate.end(blown: true) == true, "idle: the caller finishes")
        #expect(gate.end(blown: true) == nil, "it ends once")
        #expect(!gate.enter())
        #expect(!gate.leave(), "a late value leaves without finishing")
    }

    @Test func theAtomicGateLeavesABlowDuringNestedDeliveriesToTheLastToLeave() {
        let gate = SharedGate()
        _ = gate.leave()
        #expect(gate.subscribe())
        #expect(gate.enter())  // outer
        #expect(gate.enter())  // a re-entrant send
        #expect(gate.end(blown: true) == false)
        #expect(!gate.enter(), "a value sent after the blow")
        #expect(!gate.leave())
        #expect(!gate.leave())
        #expect(gate.leave(), "the outer delivery finishes")
        #expect(!gate.current.finishPending)
        #expect(gate.current.status == .terminal)
        #expect(!gate.enter())
        #expect(!gate.leave(), "a value after the finish")
    }

    @Test func exactlyOneThreadFinishesARaceOfValuesAndABlow() async {
        for _ in 0..<200 {
            let gate = SharedGate()
            _ = gate.leave()
            #expect(gate.subscribe())
            let finishers = Recorder<String>()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        for _ in 0..<50 {
                            _ = gate.enter()
                            if gate.leave() { finishers.record("delivery") }
                        }
                    }
                }
                group.addTask {
                    if gate.end(blown: true) == true { finishers.record("blow") }
                }
            }
            #expect(finishers.events.count == 1, "finished by \(finishers.events)")
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
    func leave() -> Bool { gate.leave() }
    func subscribe() -> Bool { gate.subscribe() }
    func end(blown: Bool) -> Bool? { gate.end(blown: blown) }
}
