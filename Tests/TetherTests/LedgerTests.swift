import Synchronization
import Testing

@testable import Tether

/// An owner the way users write one: it holds a bag and tracks itself in its init.
private final class Model {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// An owner that stores one subscription before it tracks itself (which has no owner in the
/// ledger) and one after.
private final class LateTrackingModel {
    let bag = DisposeBag()
    init() {
        PassthroughSubject<Int, Never>().sink { _ in }.store(boundTo: bag)
        bag.track(self)
        PassthroughSubject<Int, Never>().sink { _ in }.store(boundTo: bag)
    }
}

private final class ParentModel {
    let bag = DisposeBag()
    let child: ChildModel
    init() {
        child = ChildModel(parent: bag)
        bag.track(self)
        child.bag.track(child)
    }
}

private final class ChildModel {
    let bag: DisposeBag
    init(parent: DisposeBag) { bag = DisposeBag(boundTo: parent) }
}

@Suite struct LedgerTests {
    /// An event names its owner by two numbers, not by a reference: it stays small.
    @Test func anEventInTheLogTakesFortyBytes() {
        #expect(MemoryLayout<LoggedEvent>.stride == 40)
    }

    /// Logging an owner's events retains nothing: once the owner settles, its record goes, while
    /// its events stay in the log and still name it.
    @Test func theLogKeepsNoOwnersRecordAlive() throws {
        let fixture = LedgerFixture()
        weak var record: OwnerRecord?
        fixture.run {
            let model = Model()
            PassthroughSubject<Int, Never>().sink { _ in }.store(boundTo: model.bag)
            record = model.bag.ownerRecord
        }
        #expect(record == nil)
        let events = fixture.ledger.snapshotRearmingOnChange().events
        #expect(events.map(\.kind) == [.created, .ownerEnded, .cancelled, .deinit])
        #expect(events.map(\.owner?.description) == Array(repeating: "Model#1", count: 4))
    }

    @Test func eventsNameTheirCallSitesAndOwners() throws {
        let ledger = Ledger(clock: ManualClock())
        let model = Model()
        let owner = try #require(
            ledger.makeOwner(for: model, site: CallSite(fileID: "Module/Model.swift", line: 1), parent: nil))
        let first = CallSite(fileID: "Module/First.swift", line: 7)
        let second = CallSite(fileID: "Module/Second.swift", line: 9)
        let entries = [first, second, first].compactMap {
            ledger.open(.task, owner: owner, site: $0, bound: false)
        }
        ledger.note("hello", owner: OwnerID(typeName: "Note", serial: 1))
        for entry in entries { entry.end(.ended) }
        let events = ledger.snapshotRearmingOnChange().events
        #expect(events.map(\.kind) == [.created, .created, .created, .note, .ended, .ended, .ended])
        #expect(events.map(\.site) == [first, second, first, nil, first, second, first])
        let id = ledger.ownerID(of: owner)
        #expect(
            events.map(\.owner) == Array(repeating: id, count: 3) + [
                OwnerID(typeName: "Note", serial: 1)
            ] + Array(repeating: id, count: 3))
        #expect(events[3].message == "hello")
    }

    @Test func ownerIdsCountPerType() {
        let fixture = LedgerFixture()
        let (first, second) = fixture.run { (Model(), Model()) }
        #expect(first.bag.ownerID?.description == "Model#1")
        #expect(second.bag.ownerID?.description == "Model#2")
        #expect(fixture.ledger.counters.owners == 2)
    }

    @Test func storedSubscriptionIsAnEntryWithItsCallSite() throws {
        let fixture = LedgerFixture()
        let subject = PassthroughSubject<Int, Never>()
        let model = fixture.run { Model() }
        let line: UInt = #line + 1
        subject.sink { _ in }.store(boundTo: model.bag)
        let owner = try #require(fixture.ledger.snapshotRearmingOnChange().owners.first)
        #expect(owner.id == model.bag.ownerID)
        #expect(owner.entries.map(\.kind) == [.subscription])
        #expect(owner.entries.first?.site.description == "LedgerTests.swift:\(line)")
        #expect(owner.entries.first?.bound == true)
    }

    @Test func ownerThatEndsAndIsReleasedLeavesNoLeak() {
        let fixture = LedgerFixture()
        fixture.run {
            do {
                let model = Model()
                PassthroughSubject<Int, Never>().sink { _ in }.store(boundTo: model.bag)
            }
        }
        fixture.passGracePeriod()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.leaks.isEmpty)
        #expect(snapshot.counters == LedgerSnapshot.Counters())
        #expect(snapshot.owners.isEmpty)
    }

    @Test func ownerStillAliveAfterTheGracePeriodIsALeak() throws {
        let fixture = LedgerFixture()
        let model = fixture.run { Model() }
        model.bag.dispose()
        fixture.clock.advance(by: .milliseconds(299))
        #expect(fixture.ledger.counters.leaks == 0)
        fixture.clock.advance(by: .milliseconds(1))
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.counters.leaks == 1)
        let leak = try #require(snapshot.leaks.first)
        #expect(leak.owner == model.bag.ownerID)
        #expect(leak.kindName == "owner")
        #expect(leak.site.file == "LedgerTests.swift")
        #expect(snapshot.events.map(\.kind).suffix(2) == [.ownerEnded, .leak])
    }

    @Test func lateReleaseTurnsALeakIntoReleasedLate() {
        let fixture = LedgerFixture()
        var model: Model? = fixture.run { Model() }
        model?.bag.dispose()
        fixture.passGracePeriod()
        #expect(fixture.ledger.counters.leaks == 1)
        model = nil
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.counters.leaks == 0)
        #expect(snapshot.leaks.isEmpty)
        #expect(snapshot.counters.owners == 0)
        #expect(snapshot.events.map(\.kind).suffix(2) == [.deinit, .releasedLate])
    }

    /// Leaks are listed in the order they were found — by the end of each grace period, not by
    /// when each owner was made — and a late release takes one out without moving the others.
    @Test func leaksAreListedInTheOrderTheyWereFound() {
        let fixture = LedgerFixture()
        var models: [Model?] = fixture.run { (0..<3).map { _ in Model() } }
        let ids = models.map { $0?.bag.ownerID?.description }
        #expect(ids == ["Model#1", "Model#2", "Model#3"])
        for index in [2, 0, 1] {
            models[index]?.bag.dispose()
            fixture.clock.advance(by: .milliseconds(100))
        }
        fixture.passGracePeriod()
        let found = fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner.description)
        #expect(found == [ids[2], ids[0], ids[1]])

        models[0] = nil
        #expect(fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner.description) == [ids[2], ids[1]])
        let later = fixture.run { Model() }
        later.bag.dispose()
        fixture.passGracePeriod()
        let all = fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner.description)
        #expect(all == [ids[2], ids[1], later.bag.ownerID?.description])
    }

    @Test func onlyTheRootOwnerIsReported() throws {
        let fixture = LedgerFixture()
        let screen = fixture.run { ParentModel() }
        screen.bag.dispose()
        #expect(screen.child.bag.isDisposed)
        fixture.passGracePeriod()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.leaks.map(\.owner.typeName) == ["ParentModel"])
        #expect(snapshot.leaks.first?.covered == [screen.child.bag.ownerID].compactMap { $0 })
        #expect(snapshot.counters.leaks == 1)
    }

    /// A child disposed of just before its parent is judged first, while the parent still awaits
    /// its verdict: the parent leaks, and its report covers the child.
    @Test func aChildEndedJustBeforeItsLeakingParentIsCovered() {
        let fixture = LedgerFixture()
        let heard = Recorder<String>()
        let watch = fixture.ledger.onLeak { heard.record($0.owner.description) }
        let screen = fixture.run { ParentModel() }
        screen.child.bag.dispose()
        fixture.clock.advance(by: .milliseconds(100))
        screen.bag.dispose()
        fixture.passGracePeriod()
        #expect(heard.events == ["ParentModel#1"])
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.leaks.map(\.owner.description) == ["ParentModel#1"])
        #expect(snapshot.leaks.first?.covered.map(\.description) == ["ChildModel#1"])
        #expect(snapshot.counters.leaks == 1)
        watch.cancel()
    }

    /// The same child, but its parent goes before its own verdict: nothing covers the child any
    /// more, and it is reported on its own then.
    @Test func aChildCoveredByAParentThatThenGoesIsReportedOnItsOwn() {
        let fixture = LedgerFixture()
        var screen: ParentModel? = fixture.run { ParentModel() }
        let child = screen!.child
        child.bag.dispose()
        fixture.clock.advance(by: .milliseconds(100))
        screen!.bag.dispose()
        fixture.clock.advance(by: .milliseconds(200))  // the child's verdict: covered
        #expect(fixture.ledger.snapshotRearmingOnChange().leaks.isEmpty)
        screen = nil  // the parent goes before its verdict
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.leaks.map(\.owner.description) == ["ChildModel#1"])
        #expect(snapshot.counters.leaks == 1)
        withExtendedLifetime(child) {}
    }

    /// A bag between two owners that no owner tracks: the owner above it still covers the one
    /// below.
    @Test func anOwnerBelowAnUntrackedBagIsCoveredByTheOwnerAbove() {
        let fixture = LedgerFixture()
        let top = fixture.run { Model() }
        let middle = fixture.run { DisposeBag(boundTo: top.bag) }
        let leaf = fixture.run { ChildModel(parent: middle) }
        leaf.bag.track(leaf)
        top.bag.dispose()
        #expect(leaf.bag.isDisposed)
        fixture.passGracePeriod()
        let leaks = fixture.ledger.snapshotRearmingOnChange().leaks
        #expect(leaks.map(\.owner) == top.bag.ownerID.map { [$0] })
        #expect(leaks.first?.covered == leaf.bag.ownerID.map { [$0] })
        #expect(fixture.ledger.counters.ending == 1)
        withExtendedLifetime((top, middle, leaf)) {}
    }

    /// Keys are per ledger: a parent in another ledger (an app's session, in the shared ledger)
    /// covers nothing here, and is not mistaken for the owner of the same key here.
    @Test func aParentInAnotherLedgerCoversNothing() {
        let app = LedgerFixture()
        let fixture = LedgerFixture()
        let session = app.run { Model() }  // key 1 in the app's ledger
        let unrelated = fixture.run { Model() }  // key 1 here, and it leaks
        unrelated.bag.dispose()
        fixture.passGracePeriod()
        let child = fixture.run { ChildModel(parent: session.bag) }
        child.bag.track(child)
        child.bag.dispose()
        fixture.passGracePeriod()
        let leaks = fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner)
        #expect(leaks == [unrelated.bag.ownerID, child.bag.ownerID].compactMap { $0 })
        #expect(fixture.ledger.counters.leaks == 2)
        #expect(fixture.ledger.counters.ending == 0)
        withExtendedLifetime((session, unrelated, child)) {}
    }

    /// `ending` counts the owners a snapshot shows as ended, at every step of their way out.
    @Test func endingCountsTheOwnersOnTheirWayOut() {
        let fixture = LedgerFixture()
        func expectEnding(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            let snapshot = fixture.ledger.snapshotRearmingOnChange()
            #expect(snapshot.counters.ending == count, sourceLocation: sourceLocation)
            let ended = snapshot.owners.filter { $0.state == .ended }
            #expect(ended.count == count, sourceLocation: sourceLocation)
        }
        // Ended while something still holds it, then let go.
        var model: Model? = fixture.run { Model() }
        expectEnding(0)
        model?.bag.dispose()
        expectEnding(1)
        model = nil
        expectEnding(0)

        // Kept past the grace period: a leak, no longer on its way out; then released late.
        var kept: Model? = fixture.run { Model() }
        kept?.bag.dispose()
        fixture.passGracePeriod()
        expectEnding(0)
        #expect(fixture.ledger.counters.leaks == 1)
        kept = nil
        expectEnding(0)

        // A parent and its child: the leak is the parent's, the child stays on its way out
        // until both are gone.
        var screen: ParentModel? = fixture.run { ParentModel() }
        screen?.bag.dispose()
        expectEnding(2)
        fixture.passGracePeriod()
        expectEnding(1)
        screen = nil
        expectEnding(0)

        // Released while a task attributed to it runs on: on its way out until the verdict.
        var orphan: LedgerEntry?
        fixture.run {
            let gone = Model()
            orphan = fixture.ledger.open(
                .task, owner: gone.bag.ownerRecord, site: CallSite(), bound: false)
        }
        expectEnding(1)
        fixture.passGracePeriod()
        expectEnding(0)
        orphan?.end()
        expectEnding(0)
        #expect(fixture.ledger.counters == LedgerSnapshot.Counters())
    }

    @Test func deliveryAfterTheOwnersEndIsAZombie() throws {
        let fixture = LedgerFixture()
        let model = fixture.run { Model() }
        let entry = try #require(
            fixture.ledger.open(
                .observer, owner: model.bag.ownerRecord, site: CallSite(), bound: false))
        entry.delivered()
        #expect(fixture.ledger.counters.zombies == 0)
        model.bag.dispose()
        entry.delivered()
        entry.delivered()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.counters.zombies == 2)
        #expect(snapshot.owners.first?.entries.first?.deliveries == 3)
        #expect(snapshot.events.filter { $0.kind == .zombie }.count == 2)
    }

    @Test func aliveOwnerIsNamedByTheEntryThatOutlivedItsEnd() throws {
        let fixture = LedgerFixture()
        // Kept alive by something outside; its attributed (unstored) entry names the leak.
        let kept = fixture.run { Model() }
        let site = CallSite()
        let attributed = fixture.ledger.open(
            .task, owner: kept.bag.ownerRecord, site: site, bound: false)
        kept.bag.dispose()
        fixture.passGracePeriod()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        let leak = try #require(snapshot.leaks.first)
        #expect(leak.owner.typeName == "Model")
        #expect(leak.kind == .task)
        #expect(leak.site == site)
        // The leak's event names the same site.
        #expect(snapshot.events.last { $0.kind == .leak }?.site == site)
        attributed?.end()
    }

    @Test func entryOutlivingItsReleasedOwnerIsALeakUntilItEnds() throws {
        let fixture = LedgerFixture()
        // The owner is gone, but a task attributed to it (never stored) runs on.
        var orphan: LedgerEntry?
        let site = CallSite()
        fixture.run {
            let gone = Model()
            orphan = fixture.ledger.open(
                .task, owner: gone.bag.ownerRecord, site: site, bound: false)
        }
        fixture.passGracePeriod()
        var snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.leaks.map(\.site) == [site])
        #expect(snapshot.counters.owners == 0)
        orphan?.end()
        snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.counters.leaks == 0)
        #expect(snapshot.counters.tasks == 0)
        #expect(snapshot.events.last?.kind == .releasedLate)
    }

    @Test func boundEntryOutlivingItsReleasedOwnerIsALeak() throws {
        let fixture = LedgerFixture()
        var entry: LedgerEntry?
        fixture.run {
            let model = Model()
            // An entry the lifetime holds but cannot end (as a task that ignores cancellation).
            entry = fixture.ledger.open(
                .task, owner: model.bag.ownerRecord, site: CallSite(), bound: true)
        }
        fixture.passGracePeriod()
        #expect(fixture.ledger.snapshotRearmingOnChange().leaks.map(\.kind) == [.task])
        entry?.end()
    }

    @Test func entriesClosedInAnyOrderLeaveTheOthersListed() {
        let fixture = LedgerFixture()
        let model = fixture.run { Model() }
        let entries = (0..<6).map { line in
            fixture.ledger.open(
                .task, owner: model.bag.ownerRecord, site: CallSite(line: UInt(line)), bound: false)
        }
        for index in [2, 5, 0] { entries[index]?.end() }
        let open = fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.map(\.site.line)
        #expect(open == [1, 3, 4])
        #expect(fixture.ledger.counters.tasks == 3)
        for index in [4, 1, 3] { entries[index]?.end() }
        #expect(fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.isEmpty == true)
    }

    @Test func anEntryOfAnotherLedgerInALifetimeEndsInItsOwnLedger() {
        let fixture = LedgerFixture()
        let other = Ledger(clock: ManualClock())
        let live = LiveData(0)
        let panel = Viewer("panel", ledger: fixture.ledger)
        let attributedTo = Lifetime(ledger: other)
        live.add(observer: panel, disposeBag: panel.bag, attributedTo: attributedTo) { _ in }
        #expect(other.counters.observers == 1)
        panel.bag.dispose()
        #expect(other.counters.observers == 0)
        #expect(other.snapshotRearmingOnChange().events.map(\.kind) == [.created, .cancelled])
        #expect(fixture.ledger.snapshotRearmingOnChange().events.map(\.kind) == [.ownerEnded])
    }

    @Test func eventLogKeepsOnlyTheNewest() {
        let ledger = Ledger(clock: ManualClock(), eventCapacity: 3)
        for index in 1...5 { ledger.note("event \(index)") }
        #expect(
            ledger.snapshotRearmingOnChange().events.compactMap(\.message) == [
                "event 3", "event 4", "event 5",
            ])
    }

    @Test func anEventLogOfNoCapacityKeepsNothing() {
        for capacity in [0, -1] {
            let ledger = Ledger(clock: ManualClock(), eventCapacity: capacity)
            ledger.note("a")
            ledger.note("b")
            #expect(ledger.snapshotRearmingOnChange().events.isEmpty)
        }
    }

    @Test func changeHandlerIsCalledOncePerSnapshot() {
        let fixture = LedgerFixture()
        let calls = Recorder<Int>()
        let token = fixture.ledger.onChange { calls.record(1) }
        fixture.ledger.note("a")
        fixture.ledger.note("b")
        #expect(calls.events.count == 1)
        _ = fixture.ledger.snapshotRearmingOnChange()
        fixture.ledger.note("c")
        #expect(calls.events.count == 2)
        token.cancel()
        _ = fixture.ledger.snapshotRearmingOnChange()
        fixture.ledger.note("d")
        #expect(calls.events.count == 2)
    }

    /// Two handlers, each cancelling the other when called: whichever is called first, the other
    /// is not called after its cancel.
    @Test func aHandlerCancelledByAnotherIsNotCalledAfterIt() {
        let fixture = LedgerFixture()
        let calls = Recorder<String>()
        let (first, second) = (Slot<AnyCancellable>(), Slot<AnyCancellable>())
        first.put(
            fixture.ledger.onChange {
                calls.record("first")
                second.take()?.cancel()
            })
        second.put(
            fixture.ledger.onChange {
                calls.record("second")
                first.take()?.cancel()
            })
        fixture.ledger.note("a")
        #expect(calls.events.count == 1)
    }

    /// A handler told of a change leaves without a snapshot (a metrics reporter that ended):
    /// one registered after it is still told of the next change.
    @Test func aHandlerRegisteredAfterAnotherWasToldIsToldTheNextChange() {
        let fixture = LedgerFixture()
        let first = fixture.ledger.onChange {}
        fixture.ledger.note("a")
        first.cancel()
        let calls = Recorder<Int>()
        let second = fixture.ledger.onChange { calls.record(1) }
        fixture.ledger.note("b")
        fixture.ledger.note("c")
        #expect(calls.events.count == 1)
        second.cancel()
    }

    @Test func disabledLedgerRecordsNothing() {
        let ledger = Ledger(clock: ManualClock(), isEnabled: false)
        let subject = PassthroughSubject<Int, Never>()
        Ledger.$current.withValue(ledger) {
            let model = Model()
            subject.sink { _ in }.store(boundTo: model.bag)
        }
        #expect(ledger.counters == LedgerSnapshot.Counters())
        #expect(ledger.snapshotRearmingOnChange().events.isEmpty)
    }

    @Test func ownersEndingOnManyThreadsLeaveCleanCounters() async {
        let fixture = LedgerFixture()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let subject = PassthroughSubject<Int, Never>()
                    for _ in 0..<500 {
                        Ledger.$current.withValue(fixture.ledger) {
                            let model = Model()
                            subject.sink { _ in }.store(boundTo: model.bag)
                        }
                    }
                }
            }
        }
        fixture.passGracePeriod()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.counters == LedgerSnapshot.Counters())
        #expect(snapshot.owners.isEmpty)
    }
}

/// A manual clock that counts how many actions were scheduled on it; `waitsOutTolerance` to run
/// a schedule with a tolerance at its end, as ``SystemClock`` does.
private final class CountingClock: TetherClock {
    let base = ManualClock()
    private let waitsOutTolerance: Bool
    private let scheduled = Mutex(0)

    init(waitsOutTolerance: Bool = false) { self.waitsOutTolerance = waitsOutTolerance }

    var count: Int { scheduled.withLock { $0 } }
    var now: Duration { base.now }

    func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        scheduled.withLock { $0 += 1 }
        return base.schedule(at: deadline, action)
    }

    func schedule(
        at deadline: Duration, tolerance: Duration, _ action: @escaping @Sendable () -> Void
    ) -> ScheduledAction {
        schedule(at: waitsOutTolerance ? deadline + tolerance : deadline, action)
    }

    func sleep(until deadline: Duration) async throws { try await base.sleep(until: deadline) }
}

@Suite struct LedgerVerdictBatchingTests {
    @Test func ownersEndingTogetherShareOneVerdictTimer() {
        let clock = CountingClock()
        let ledger = Ledger(clock: clock)
        let kept = (0..<100).map { _ in Ledger.$current.withValue(ledger) { Model() } }
        for model in kept { model.bag.dispose() }  // every owner leaks: each one must be judged
        clock.base.advance(by: ledger.gracePeriod)
        #expect(ledger.counters.leaks == 100)
        #expect(clock.count == 1)
        withExtendedLifetime(kept) {}
    }

    /// On a clock that waits out the tolerance, owners ending 1 ms apart share a verdict timer per
    /// tenth of the grace period, not one each; none is judged early.
    @Test func ownersEndingInQuickSuccessionShareTimersOnAClockThatWaits() {
        let clock = CountingClock(waitsOutTolerance: true)
        let ledger = Ledger(clock: clock)
        var kept: [Model] = []
        for _ in 0..<100 {
            let model = Ledger.$current.withValue(ledger) { Model() }
            model.bag.dispose()
            kept.append(model)  // every owner leaks: each one must be judged
            clock.base.advance(by: .milliseconds(1))
        }
        // None may be judged before its 300 ms have passed: the first ended at 0 ms, the last at 99.
        clock.base.advance(to: .milliseconds(299))
        #expect(ledger.counters.leaks == 0)
        clock.base.advance(to: .milliseconds(398))
        #expect(ledger.counters.leaks < 100)
        clock.base.advance(to: .milliseconds(440))
        #expect(ledger.counters.leaks == 100)
        #expect(clock.count <= 5)
        kept.removeAll()
        #expect(ledger.counters.leaks == 0)
    }

    /// Each owner is judged when its own grace period ends, not later — whatever verdicts came
    /// before it: a test that advances the clock by the grace period after an end sees its verdict.
    @Test func ownersEndingApartAreEachJudgedWhenTheirGracePeriodEnds() {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        var kept: [Model] = []
        for _ in 0..<100 {
            let model = Ledger.$current.withValue(ledger) { Model() }
            model.bag.dispose()
            kept.append(model)
            clock.advance(by: .milliseconds(1))
        }
        // Owner n ended at n ms: at 300 + n ms exactly n + 1 owners are judged.
        for judged in [1, 2, 50, 100] {
            clock.advance(to: ledger.gracePeriod + .milliseconds(judged - 1))
            #expect(ledger.counters.leaks == judged)
        }
        kept.removeAll()
        #expect(ledger.counters.leaks == 0)
    }

    /// A verdict timer armed for an owner that settled meanwhile finds nothing to judge: the next
    /// owner is still judged when its grace period ends.
    @Test func anOwnerIsJudgedOnTimeAfterATimerThatFoundNothing() {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        var first: Model? = Ledger.$current.withValue(ledger) { Model() }
        first?.bag.dispose()  // a timer is armed for its verdict
        first = nil  // and it settles: the timer will find nothing
        clock.advance(by: .milliseconds(10))
        let second = Ledger.$current.withValue(ledger) { Model() }
        second.bag.dispose()
        clock.advance(by: ledger.gracePeriod)
        #expect(ledger.snapshotRearmingOnChange().leaks.map(\.owner) == second.bag.ownerID.map { [$0] })
        withExtendedLifetime(second) {}
    }

    @Test func ownerReleasedWithNothingAliveIsSettledAtOnceWithoutATimer() {
        let clock = CountingClock()
        let ledger = Ledger(clock: clock)
        let line: UInt = #line + 4
        Ledger.$current.withValue(ledger) {
            do {
                let model = Model()
                PassthroughSubject<Int, Never>().sink { _ in }.store(boundTo: model.bag)
            }
        }
        let snapshot = ledger.snapshotRearmingOnChange()
        #expect(snapshot.events.map(\.kind) == [.created, .ownerEnded, .cancelled, .deinit])
        #expect(snapshot.events.first?.site?.line == line)
        #expect(snapshot.owners.isEmpty)
        #expect(snapshot.counters == LedgerSnapshot.Counters())
        #expect(clock.count == 0)
    }

    @Test func anEndClosesEntriesOpenedBeforeItsOwnerTrackedWithItsOwn() {
        let ledger = Ledger(clock: ManualClock())
        Ledger.$current.withValue(ledger) {
            let model = LateTrackingModel()
            #expect(ledger.counters.subscriptions == 2)
            #expect(ledger.snapshotRearmingOnChange().owners.first?.entries.count == 1)
            withExtendedLifetime(model) {}
        }
        let snapshot = ledger.snapshotRearmingOnChange()
        #expect(
            snapshot.events.map(\.kind) == [.created, .created, .ownerEnded, .cancelled, .cancelled, .deinit])
        #expect(snapshot.owners.isEmpty)
        #expect(snapshot.counters == LedgerSnapshot.Counters())
    }

    /// A lifetime's end may close an entry of another owner, which then settles and leaves the
    /// ledger's books: the ending owner is found again, wherever the removal moved it.
    @Test func anEndThatSettlesAnotherOwnerStillSettlesItsOwn() {
        let ledger = Ledger(clock: ManualClock())
        let others = Ledger.$current.withValue(ledger) { (0..<64).map { _ in Model() } }
        Ledger.$current.withValue(ledger) {
            let holder = Model()
            do {
                let other = Model()
                let entry = ledger.open(
                    .subscription, owner: other.bag.ownerRecord, site: CallSite(fileID: #fileID, line: #line),
                    bound: false)
                holder.bag.insert(.call {}, entry: entry)
            }
            // The other owner is released with its entry alive in the holder's bag.
            #expect(ledger.counters.ending == 1)
            #expect(ledger.counters.owners == 65)
        }
        let counters = ledger.counters
        #expect(counters.owners == 64)
        #expect(counters.ending == 0)
        #expect(counters.subscriptions == 0)
        #expect(ledger.snapshotRearmingOnChange().owners.count == 64)
        withExtendedLifetime(others) {}
    }

    @Test func disposedOwnerReleasedBeforeItsVerdictIsForgottenAndNeverJudged() {
        let clock = CountingClock()
        let ledger = Ledger(clock: clock)
        var model: Model? = Ledger.$current.withValue(ledger) { Model() }
        model?.bag.dispose()
        #expect(clock.count == 1)
        #expect(ledger.snapshotRearmingOnChange().owners.map(\.state) == [.ended])
        model = nil
        #expect(ledger.snapshotRearmingOnChange().owners.isEmpty)
        clock.base.advance(by: ledger.gracePeriod)
        #expect(ledger.counters == LedgerSnapshot.Counters())
        #expect(clock.count == 1)  // nothing left to judge: not re-armed
    }

    @Test func ownerReleasedWhileAnAttributedTaskRunsIsStillJudged() throws {
        let clock = CountingClock()
        let ledger = Ledger(clock: clock)
        var entry: LedgerEntry?
        do {
            let model = Ledger.$current.withValue(ledger) { Model() }
            entry = ledger.open(.task, owner: model.bag.ownerRecord, site: CallSite(), bound: false)
        }
        #expect(clock.count == 1)
        clock.base.advance(by: ledger.gracePeriod)
        let leak = try #require(ledger.snapshotRearmingOnChange().leaks.first)
        #expect(leak.kind == .task)
        entry?.end()
        #expect(ledger.counters.leaks == 0)
        #expect(ledger.snapshotRearmingOnChange().owners.isEmpty)
    }

    @Test func noOwnerIsJudgedBeforeItsGracePeriodEnds() {
        let fixture = LedgerFixture()
        let first = fixture.run { Model() }
        let second = fixture.run { Model() }
        first.bag.dispose()
        fixture.clock.advance(by: .milliseconds(10))
        second.bag.dispose()
        fixture.clock.advance(by: .milliseconds(290))  // first's grace ends
        #expect(fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner) == [first.bag.ownerID!])
        fixture.clock.advance(by: .milliseconds(9))  // second's has not
        #expect(fixture.ledger.counters.leaks == 1)
        fixture.clock.advance(by: .milliseconds(30))
        #expect(fixture.ledger.counters.leaks == 2)
    }
}
