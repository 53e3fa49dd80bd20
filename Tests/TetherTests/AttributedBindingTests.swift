import Testing

@testable import Tether

/// The attributed (naive) twins that the lab's leaky scenarios use: visible in the ledger,
/// owned by a model, but not ended with it.
@Suite struct AttributedBindingTests {
    private final class Model {
        let bag = DisposeBag()
        init() { bag.track(self) }
    }

    @Test func countDeliveryCountsForTheTrackedTaskAndZombiesAfterItsOwnerEnded() async {
        let fixture = LedgerFixture()
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let (counted, countedFirst) = AsyncStream.makeStream(of: Void.self)
        let model = fixture.run { Model() }
        let task = Task.attributed(to: model.bag) {
            Task.countDelivery()
            countedFirst.yield()
            for await _ in gate { break }
            Task.countDelivery()
            Task.countDelivery()
        }
        for await _ in counted { break }  // the first delivery happened while the owner lived
        model.bag.dispose()
        open.yield()
        await task.value
        #expect(fixture.ledger.counters.zombies == 2)
        #expect(fixture.ledger.counters.tasks == 0)
    }

    @Test func countDeliveryOutsideATrackedTaskDoesNothing() async {
        let fixture = LedgerFixture()
        await Task { Task.countDelivery() }.value
        Task.countDelivery()
        #expect(fixture.ledger.snapshotRearmingOnChange().events.isEmpty)
    }

    /// A worker made inside a screen's bound task starts its own loop there: the loop inherits
    /// the screen task's task-locals, but its deliveries are not that task's — nor, once the
    /// screen has ended, its owner's zombies.
    @Test func aTaskStartedInsideAnotherCountsNoDeliveryOnItsEntry() async {
        let fixture = LedgerFixture()
        let (ticks, send) = AsyncStream.makeStream(of: Int.self)
        let loop = Slot<Task<Void, Never>>()
        var screen: Model? = fixture.run { Model() }
        await fixture.run {
            Task(boundTo: screen!.bag) {
                loop.put(Task { for await _ in ticks { Task.countDelivery() } })
                Task.countDelivery()  // the screen's own task: counted on its entry
            }
        }.value
        #expect(fixture.ledger.snapshotRearmingOnChange().events.filter { $0.kind == .zombie }.isEmpty)
        screen?.bag.dispose()
        screen = nil
        send.yield(1)
        send.finish()
        await loop.value?.value
        #expect(fixture.ledger.counters.zombies == 0, "the worker's value is no zombie of the screen")
        #expect(fixture.ledger.snapshotRearmingOnChange().events.filter { $0.kind == .zombie }.isEmpty)
    }

    /// Once a bound task's operation has returned, its binding names no task, not even one with
    /// its identity: a task made later may take the freed task's address, and would otherwise
    /// count the dead task's deliveries (and its owner's zombies) through a binding it inherited.
    @Test func aBindingWhoseOperationReturnedNamesNoTask() async {
        let fixture = LedgerFixture()
        let owner = fixture.run { Model() }
        let entry = fixture.ledger.open(.task, owner: owner.bag.ownerRecord, site: CallSite(), bound: true)
        await Task {
            let binding = LedgerEntry.TaskBinding(entry!)
            LedgerEntry.$bound.withValue(binding) {
                #expect(LedgerEntry.current === entry)
                binding.end()  // what the operation's return does; the task keeps its identity here
                #expect(LedgerEntry.current == nil)
            }
        }.value
        entry?.end()
    }

    @Test func attributedObservationOutlivesItsOwnerAsALeakNamedByItsCallSite() throws {
        let fixture = LedgerFixture()
        let value = ObservedProperty(0)
        let seen = Recorder<Int>()
        let line: UInt = #line + 4
        let observation: PropertyObservation
        do {
            let owner = fixture.run { Model() }
            observation = value.observe(.did, attributedTo: owner.bag) { new, _ in seen.record(new) }
            owner.bag.dispose()
        }
        value.value = 1
        fixture.passGracePeriod()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        let leak = try #require(snapshot.leaks.first)
        #expect(leak.kind == .observer)
        #expect(leak.site.description == "AttributedBindingTests.swift:\(line)")
        #expect(snapshot.counters.zombies == 1)
        #expect(seen.events == [1])

        #expect(value.remove(observation))
        #expect(fixture.ledger.counters.leaks == 0)
    }
}
