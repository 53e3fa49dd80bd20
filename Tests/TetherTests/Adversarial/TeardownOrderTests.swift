import TestSupport
import Testing
import Tether

/// Teardown order across every kind of binding: a lifetime ends what it holds in reverse order of
/// adding (Lifetimes.md); child lifetimes end with their parent and neither keeps the other alive;
/// leaks are reported at the root owner only (TheLedger.md).
extension Adversarial {
    @Suite struct TeardownOrderTests {
        /// One binding of each kind, as the teardown records it.
        enum Kind: String, CaseIterable, Sendable {
            case boundSink, storedSubscription, fusedSubscription, asyncSink, storedTask, lifetimeTask
            case liveDataObserver, observedObservation, onDispose, childLifetime
        }

        static let orders: [[Kind]] = [
            Kind.allCases,
            Kind.allCases.reversed(),
            [
                .lifetimeTask, .liveDataObserver, .boundSink, .childLifetime, .asyncSink, .onDispose,
                .storedTask, .observedObservation, .fusedSubscription, .storedSubscription,
            ],
        ]

        @Test(arguments: orders)
        func oneOfEachKindEndsInReverseOrderOfAdding(_ order: [Kind]) async {
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let running = Recorder<Kind>()
            let subject = OrderedSubject()
            let data = LiveData<Int>()
            let property = ObservedProperty(0)
            let holder = Slot(FuseHolder())
            let child = Slot<DisposeBag>()
            let owner = fixture.run { Slot(StreamsOwner()) }
            /// A task body that reports it runs, then records its cancellation when it comes.
            @Sendable func untilCancelled(_ kind: Kind) async {
                await withTaskCancellationHandler {
                    running.record(kind)
                    await TetherTests.untilCancelled()
                } onCancel: {
                    log.record(kind.rawValue)
                }
            }
            /// Upstream of a subscription: records its cancellation.
            let upstream = { (kind: Kind) in
                subject.handleEvents(receiveCancel: { log.record(kind.rawValue) })
            }
            fixture.run {
                let bag = owner.value!.bag
                for kind in order {
                    switch kind {
                    case .boundSink: upstream(kind).sink(boundTo: bag) { _ in }
                    case .storedSubscription: upstream(kind).sink { _ in }.store(boundTo: bag)
                    case .fusedSubscription:
                        let fused = upstream(kind).fuse(heldBy: holder.value!, on: \.cancellables)
                        fused.sink { _ in }.store(boundTo: bag)
                    case .asyncSink:
                        upstream(kind).asyncSink { _ in await untilCancelled(kind) }.store(boundTo: bag)
                        subject.send(1)
                    case .storedTask: Task { await untilCancelled(kind) }.store(boundTo: bag)
                    case .lifetimeTask: Task(boundTo: bag) { await untilCancelled(kind) }
                    case .liveDataObserver:
                        let probe = DeinitProbe(kind.rawValue, log: log)
                        data.add(observer: owner.value!, disposeBag: bag) { _ in probe.touch() }
                    case .observedObservation:
                        let probe = DeinitProbe(kind.rawValue, log: log)
                        property.observe(.did, boundTo: bag) { _, _ in probe.touch() }
                    case .onDispose: bag.onEnd { log.record(kind.rawValue) }
                    case .childLifetime:
                        child.put(DisposeBag(boundTo: bag))
                        child.value!.onEnd { log.record(kind.rawValue) }
                    }
                }
            }
            let tasks: Set<Kind> = [.asyncSink, .storedTask, .lifetimeTask]
            await waitUntil { Set(running.events) == tasks }
            owner.take()
            // The asyncSink's subscription is cancelled, then its running body.
            let expected = order.reversed().flatMap { kind in
                kind == .asyncSink ? [kind.rawValue, kind.rawValue] : [kind.rawValue]
            }
            #expect(log.events == expected)
            await waitUntil { fixture.ledger.counters.tasks == 0 }
            child.take()
            #expect(fixture.ledger.counters == LedgerSnapshot.Counters())
            #expect(fixture.ledger.snapshotRearmingOnChange().owners.isEmpty)
        }

        // MARK: Children

        /// The two ways to make a child: they are one, and must behave as one.
        enum ChildForm: String, CaseIterable, Sendable { case lifetime, disposeBag }

        func child(of parent: Lifetime, _ form: ChildForm) -> Lifetime {
            switch form {
            case .lifetime: Lifetime(boundTo: parent, ledger: parent.ledger)
            case .disposeBag: DisposeBag(boundTo: parent, ledger: parent.ledger)
            }
        }

        @Test(arguments: ChildForm.allCases)
        func childrenEndInTheirPlaceWithTheirParentOnce(_ form: ChildForm) {
            let ledger = Ledger(clock: ManualClock())
            let log = Recorder<String>()
            let parent = Lifetime(ledger: ledger)
            parent.onEnd { log.record("parent 1") }
            let son = child(of: parent, form)
            son.onEnd { log.record("son 1") }
            let grandson = child(of: son, form)
            grandson.onEnd { log.record("grandson") }
            son.onEnd { log.record("son 2") }
            let daughter = child(of: parent, form)
            daughter.onEnd { log.record("daughter") }
            parent.onEnd { log.record("parent 2") }
            daughter.end()
            parent.end()
            parent.end()
            #expect(son.isEnded && grandson.isEnded && daughter.isEnded)
            #expect(log.events == ["daughter", "parent 2", "son 2", "grandson", "son 1", "parent 1"])
            // A child of an ended parent is born ended.
            let late = child(of: parent, form)
            #expect(late.isEnded)
        }

        @Test(arguments: ChildForm.allCases)
        func aChildKeptElsewhereDoesNotKeepItsParentAlive(_ form: ChildForm) {
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let kept = Slot<Lifetime>()
            weak let bag: Lifetime?
            do {
                let owner = fixture.run { StreamsOwner() }
                bag = owner.bag
                owner.bag.onEnd { log.record("owner's bag") }
                kept.put(child(of: owner.bag, form))
                kept.value!.onEnd { log.record("child") }
            }
            #expect(bag == nil)
            #expect(log.events == ["child", "owner's bag"])
            #expect(fixture.ledger.counters.owners == 0)
            #expect(fixture.ledger.snapshotRearmingOnChange().owners.isEmpty)
        }

        // MARK: Leaks at the root

        @Test(arguments: [1, 100], [false, true])
        func onlyTheRootOfALeakingFamilyIsReported(children: Int, childrenTrackFirst: Bool) throws {
            let fixture = LedgerFixture()
            // Everyone is kept: the parent and each of its children leak.
            let family = fixture.run { Family(children: children, childrenTrackFirst: childrenTrackFirst) }
            family.bag.dispose()
            fixture.passGracePeriod()
            let snapshot = fixture.ledger.snapshotRearmingOnChange()
            #expect(snapshot.leaks.map(\.owner) == [family.bag.ownerID])
            #expect(snapshot.counters.leaks == 1)
            #expect(snapshot.events.filter { $0.kind == .leak }.map(\.owner) == [family.bag.ownerID])
        }

        @Test func aLeakingChildOfAParentThatWentIsReportedOnItsOwn() throws {
            let fixture = LedgerFixture()
            let kept = Slot<Family.Child>()
            do {
                let family = fixture.run { Family(children: 1) }
                kept.put(family.children[0])
            }
            fixture.passGracePeriod()
            let leaks = fixture.ledger.snapshotRearmingOnChange().leaks
            #expect(leaks.map(\.owner) == [kept.value!.bag.ownerID])
            kept.take()
            #expect(fixture.ledger.counters == LedgerSnapshot.Counters())
        }

        /// The parent's object goes, but a subscription attributed to it lives on: the parent
        /// leaked, and covers its kept child, which tracked before it — even though the parent's
        /// lifetime, through which the child found it, is gone.
        @Test func aChildOfAParentThatLeakedAfterItWentIsNotReportedOnItsOwn() throws {
            let fixture = LedgerFixture()
            let subject = PassthroughSubject<Int, Never>()
            let kept = Slot<Family.Child>()
            let subscription = Slot<AnyCancellable>()
            let parent = fixture.run { () -> OwnerID? in
                let family = Family(children: 1)
                kept.put(family.children[0])
                subscription.put(subject.sink(attributedTo: family.bag) { _ in })
                return family.bag.ownerID
            }
            fixture.passGracePeriod()
            #expect(fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner) == [parent])
            subscription.take()?.cancel()
            kept.take()
        }
    }
}

/// An owner with children, each an owner whose bag is a child of the parent's, as a screen's view
/// model and its rows.
final class Family: Sendable {
    final class Child: Sendable {
        let bag: DisposeBag
        init(parent: DisposeBag, tracks: Bool) {
            bag = DisposeBag(boundTo: parent)
            if tracks { bag.track(self) }
        }
    }

    let bag = DisposeBag()
    let children: [Child]

    /// With `childrenTrackFirst`, each child tracks in its own `init`, the natural order: the parent
    /// can track only once its children, stored properties, exist. Otherwise the parent tracks
    /// first and then tracks its children.
    init(children count: Int, childrenTrackFirst: Bool = true) {
        children = (0..<count).map { [bag] _ in Child(parent: bag, tracks: childrenTrackFirst) }
        bag.track(self)
        if !childrenTrackFirst { for child in children { child.bag.track(child) } }
    }
}

/// Records its name when it deinitializes: what a released closure that captured it looks like.
final class DeinitProbe: Sendable {
    let name: String
    let log: Recorder<String>

    init(_ name: String, log: Recorder<String>) {
        self.name = name
        self.log = log
    }

    /// For closures to capture it.
    func touch() {}

    deinit { log.record(name) }
}
