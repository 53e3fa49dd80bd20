import Testing
import Tether

/// A `Lifecycle.observe` handler and a lifetime's end actions (`Lifetime.onEnd { }`) re-entering
/// every operation while they run. The promises: Lifecycle's (observers see every state, in order;
/// a move made while another notifies is notified after its steps; a cancelled token ends the
/// calls) and Lifetimes.md (ending is atomic: marked ended, then what the lifetime holds is
/// cancelled in reverse order of adding, with no lock held; anything added after the end is
/// cancelled at once; deliveries count as zombies from the mark on).
extension Adversarial {
    @Suite struct LifetimeReentryTests {
        // MARK: Lifecycle.observe

        /// What handler `a` does when it is told `started`.
        enum LifecycleReentry: String, CaseIterable, Sendable {
            case cancelOwnToken, cancelLaterToken, observeAgain, moveBackToCreated, destroy, endLifetime
            case releaseOwner
        }

        @Test(arguments: LifecycleReentry.allCases)
        func lifecycleObserver(_ reentry: LifecycleReentry) {
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let screen = fixture.run { Slot(Screen()) }
            let tokens = Slot<[AnyCancellable]>()
            let lifecycle = Slot(screen.value!.lifecycle)
            let once = Slot(false)
            let a = lifecycle.value!.observe { state in
                log.record("a:\(state)")
                guard state == .started, once.value == false else { return }
                once.put(true)
                switch reentry {
                case .cancelOwnToken: tokens.value?[0].cancel()
                case .cancelLaterToken: tokens.value?[1].cancel()
                case .observeAgain:
                    if let c = lifecycle.value?.observe({ log.record("c:\($0)") }) {
                        tokens.put(tokens.value! + [c])
                    }
                case .moveBackToCreated: lifecycle.value?.move(to: .created)
                case .destroy: lifecycle.value?.move(to: .destroyed)
                case .endLifetime: lifecycle.value?.lifetime.end()
                case .releaseOwner:
                    // The screen and the test's reference go; the move in progress holds it.
                    screen.take()
                    lifecycle.take()
                }
            }
            let b = lifecycle.value!.observe { log.record("b:\($0)") }
            tokens.put([a, b])
            weak let moved = lifecycle.value
            moved?.move(to: .resumed)
            lifecycle.value?.move(to: .destroyed)

            let up: [Lifecycle.State] = [.created, .started, .resumed]
            let down: [Lifecycle.State] = [.started, .created, .destroyed]
            let expected: [String] =
                switch reentry {
                case .cancelOwnToken:
                    steps(["a", "b"], [.initialized, .created, .started]) + steps(["b"], [.resumed] + down)
                case .cancelLaterToken:
                    // b, cancelled by a during `started`, is not told `started`.
                    steps(["a", "b"], [.initialized, .created]) + ["a:started"]
                        + steps(["a"], [.resumed] + down)
                case .observeAgain:
                    // c, added during `started`, is told `started` once the step is told, then
                    // what follows.
                    steps(["a", "b"], [.initialized, .created]) + ["a:started", "b:started", "c:started"]
                        + steps(["a", "b", "c"], [.resumed] + down)
                case .moveBackToCreated:
                    // resumed still comes, then the steps down to created; then the test's destroy.
                    steps(["a", "b"], [.initialized] + up + [.started, .created, .destroyed])
                case .destroy, .endLifetime:
                    steps(["a", "b"], [.initialized] + up + down)
                case .releaseOwner:
                    steps(["a", "b"], [.initialized] + up)
                }
            #expect(log.events == expected)
            if reentry == .releaseOwner { #expect(moved == nil, "released once its move returned") }
            tokens.take()
            screen.take()
            lifecycle.take()
            #expect(fixture.ledger.counters == LedgerSnapshot.Counters())
            #expect(fixture.ledger.snapshotRearmingOnChange().owners.isEmpty)
        }

        /// `a:created, b:created, …`: each state told to each observer, in order.
        func steps(_ observers: [String], _ states: [Lifecycle.State]) -> [String] {
            states.flatMap { state in observers.map { "\($0):\(state)" } }
        }

        // MARK: End actions

        /// What the end action `a2` does while the lifetime ends.
        enum ActionReentry: String, CaseIterable, Sendable {
            case endAgain, removeEarlier, addAction, addSink, send, cancelEarlier, endChild
            case releaseOwner
        }

        @Test(arguments: ActionReentry.allCases)
        func endAction(_ reentry: ActionReentry) {
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let subject = Slot(PassthroughSubject<Int, Never>())
            let owner = fixture.run { Slot(StreamsOwner()) }
            let child = Slot<DisposeBag>()
            let cancellable = Slot(AnyCancellable { log.record("c") })
            let tokens = Slot<[Lifetime.Token]>()
            // Scoped: the bag goes with its owner before the ledger is checked.
            do {
                let bag = owner.value!.bag
                let add = { (action: @escaping @Sendable () -> Void) -> Lifetime.Token in bag.onEnd(action) }
                fixture.run {
                    subject.value!.sink(boundTo: bag) { log.record("sink \($0)") }
                    cancellable.value!.store(boundTo: bag)
                    child.put(DisposeBag(boundTo: bag))
                }
                child.value!.onEnd { log.record("child") }
                let first = add { log.record("a1") }
                _ = add { [weak bag] in
                    log.record("a2")
                    switch reentry {
                    case .endAgain: bag?.end()
                    case .removeEarlier:
                        // Taken out with the rest when the end began: too late to remove; it runs.
                        if let token = tokens.value?.first {
                            log.record("removed \(bag?.remove(token) ?? false)")
                        }
                    case .addAction: bag?.onEnd { log.record("new") }
                    case .addSink:
                        if let bag { subject.value!.sink(boundTo: bag) { log.record("new sink \($0)") } }
                        subject.value!.send(8)
                    case .send: subject.value!.send(7)
                    case .cancelEarlier: cancellable.value?.cancel()
                    case .endChild: child.value?.end()
                    case .releaseOwner: owner.take()
                    }
                }
                _ = add { log.record("a3") }
                tokens.put([first])
                bag.end()
                subject.value!.send(9)
            }

            // In reverse order of adding: a3, a2, a1, the child, the cancellable, the sink.
            let tail = ["a1", "child", "c"]
            let expected: [String] =
                switch reentry {
                case .endAgain, .releaseOwner: ["a3", "a2"] + tail
                case .removeEarlier: ["a3", "a2", "removed false"] + tail
                // Added after the end: run at once.
                case .addAction: ["a3", "a2", "new"] + tail
                // The sink, added first, is cancelled last: it still receives what an action sends.
                case .addSink: ["a3", "a2", "sink 8"] + tail
                case .send: ["a3", "a2", "sink 7"] + tail
                case .cancelEarlier: ["a3", "a2", "c", "a1", "child"]
                case .endChild: ["a3", "a2", "child", "a1", "c"]
                }
            #expect(log.events == expected)
            // Delivered after the mark, a value an end action sends is a zombie delivery.
            #expect(fixture.ledger.counters.zombies == (reentry == .send || reentry == .addSink ? 1 : 0))
            owner.take()
            child.take()
            #expect(fixture.ledger.counters.entries == 0)
            #expect(fixture.ledger.counters.owners == 0)
            #expect(fixture.ledger.counters.ending == 0)
        }
    }
}
