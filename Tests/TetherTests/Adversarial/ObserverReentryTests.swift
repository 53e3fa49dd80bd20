import Testing
import Tether

/// A `LiveData` completion (added with a bag, or bound to a lifecycle owner) and an `@Observed`
/// handler re-entering every operation while a delivery runs. Two registrations, `a` then `b`;
/// `a` re-enters on the first value, then the test delivers a second. The promises:
/// LiveDataAndDisposeBags.md (a completion removed during a dispatch is not called again; no
/// observer sees an older value after a newer one; every observer ends on the newest) and
/// ObservedProperties.md (handlers may observe, remove or write re-entrantly; an observation
/// removed or disabled meanwhile is skipped). In every case: no deadlock, no zombie delivery, and
/// nothing left in the ledger once the owners go.
extension Adversarial {
    @Suite struct ObserverReentryTests {
        /// What a registration does, re-entrantly, with the first value it receives.
        enum Reentry: String, CaseIterable, Sendable {
            case endOwnBag, endLaterBag, removeSelf, removeLater, addToOwnBag, publishAgain
            case releaseOwnOwner, releaseLaterOwner
        }

        @Test(arguments: Reentry.allCases)
        func liveDataCompletion(_ reentry: Reentry) {
            let expected: [String] =
                switch reentry {
                case .endOwnBag, .removeSelf, .releaseOwnOwner: ["a1", "b1", "b2"]
                case .endLaterBag, .removeLater, .releaseLaterOwner: ["a1", "a2"]
                case .addToOwnBag: ["a1", "b1", "c1", "a2", "b2", "c2"]
                // The newer value supersedes 1 mid-dispatch: b never sees 1.
                case .publishAgain: ["a1", "a10", "b10", "a2", "b2"]
                }
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let data = LiveData<Int>()
            let (first, second) = fixture.run { (Slot(Viewer("a")), Slot(Viewer("b"))) }
            fixture.run {
                let a = first.value!
                data.add(observer: a, disposeBag: a.bag) { [weak data] value in
                    log.record("a\(value)")
                    guard value == 1, let data else { return }
                    switch reentry {
                    case .endOwnBag: first.value?.bag.dispose()
                    case .endLaterBag: second.value?.bag.dispose()
                    case .removeSelf: first.value.map { data.remove(observer: $0) }
                    case .removeLater: second.value.map { data.remove(observer: $0) }
                    case .addToOwnBag:
                        if let a = first.value {
                            data.add(observer: a, disposeBag: a.bag) { log.record("c\($0)") }
                        }
                    case .publishAgain: data.publish(value: 10)
                    case .releaseOwnOwner: first.take()
                    case .releaseLaterOwner: second.take()
                    }
                }
                let b = second.value!
                data.add(observer: b, disposeBag: b.bag) { log.record("b\($0)") }
            }
            data.publish(value: 1)
            data.publish(value: 2)
            #expect(log.events == expected)
            let left = reentry == .addToOwnBag ? 3 : reentry == .publishAgain ? 2 : 1
            #expect(data.observerCount == left)
            #expect(fixture.ledger.counters.observers == left)
            #expect(fixture.ledger.counters.zombies == 0)
            first.take()
            second.take()
            #expect(data.observerCount == 0)
            #expect(fixture.ledger.counters == Self.empty)
        }

        /// Screens `a` and `b` are resumed; their completions are bound with `observe(_:)`.
        enum LifecycleReentry: String, CaseIterable, Sendable {
            case destroyOwnScreen, stopOwnScreen, destroyLaterScreen, stopLaterScreen, removeSelf
            case observeAgain, publishAgain, releaseOwnScreen
        }

        @Test(arguments: LifecycleReentry.allCases)
        func lifecycleBoundCompletion(_ reentry: LifecycleReentry) {
            let expected: [String] =
                switch reentry {
                case .destroyOwnScreen, .removeSelf, .releaseOwnScreen: ["a1", "b1", "b2"]
                case .destroyLaterScreen: ["a1", "a2"]
                // Stopped during the dispatch, b is skipped; started again, it gets the newest once.
                case .stopLaterScreen: ["a1", "a2", "b2"]
                case .stopOwnScreen: ["a1", "b1", "b2", "a2"]
                case .observeAgain: ["a1", "b1", "c1", "a2", "b2", "c2"]
                case .publishAgain: ["a1", "a10", "b10", "a2", "b2"]
                }
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let data = LiveData<Int>()
            let (first, second) = fixture.run { (Slot(Screen()), Slot(Screen())) }
            first.value?.lifecycle.move(to: .resumed)
            second.value?.lifecycle.move(to: .resumed)
            fixture.run {
                data.observe(boundTo: first.value!) { [weak data] value in
                    log.record("a\(value)")
                    guard value == 1, let data else { return }
                    switch reentry {
                    case .destroyOwnScreen: first.value?.lifecycle.move(to: .destroyed)
                    case .stopOwnScreen: first.value?.lifecycle.move(to: .created)
                    case .destroyLaterScreen: second.value?.lifecycle.move(to: .destroyed)
                    case .stopLaterScreen: second.value?.lifecycle.move(to: .created)
                    case .removeSelf: first.value.map { data.remove(observer: $0) }
                    case .observeAgain: first.value.map { data.observe(boundTo: $0) { log.record("c\($0)") } }
                    case .publishAgain: data.publish(value: 10)
                    case .releaseOwnScreen: first.take()
                    }
                }
                data.observe(boundTo: second.value!) { log.record("b\($0)") }
            }
            data.publish(value: 1)
            data.publish(value: 2)
            first.value?.lifecycle.move(to: .started)
            second.value?.lifecycle.move(to: .started)
            #expect(log.events == expected)
            #expect(fixture.ledger.counters.zombies == 0)
            first.value?.lifecycle.move(to: .destroyed)
            second.value?.lifecycle.move(to: .destroyed)
            #expect(data.observerCount == 0)
            first.take()
            second.take()
            #expect(fixture.ledger.counters == Self.empty)
        }

        /// What handler `a` (observing `.all`) does at its first will or did call.
        enum ObservedReentry: String, CaseIterable, Sendable {
            case endOwnLifetime, endLaterLifetime, removeSelf, removeLater, disableLater, retireLater
            case observeAgain, writeAgain, releaseOwnOwner, releaseLaterOwner
        }

        static let phases: [ObservationType] = [.will, .did]

        @Test(arguments: ObservedReentry.allCases, phases)
        func observedHandler(_ reentry: ObservedReentry, at phase: ObservationType) {
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let (first, second) = fixture.run { (Slot(StreamsOwner()), Slot(StreamsOwner())) }
            let observations = Slot<[PropertyObservation]>()
            let done = Slot(false)
            // Scoped: an observation without a lifetime goes with its property, before the last check.
            do {
                let x = ObservedProperty(0)
                fixture.run {
                    let a = x.observe(.all, boundTo: first.value!.bag) { [weak x] new, old in
                        log.record(old == nil ? "a:will\(new)" : "a:did\(new)")
                        let now: ObservationType = old == nil ? .will : .did
                        guard now == phase, done.value == false, let x else { return }
                        done.put(true)
                        let b = observations.value![1]
                        switch reentry {
                        case .endOwnLifetime: first.value?.bag.end()
                        case .endLaterLifetime: second.value?.bag.end()
                        case .removeSelf: x.remove(observations.value![0])
                        case .removeLater: x.remove(b)
                        case .disableLater: b.kind = .disabled
                        case .retireLater: b.isObsolete = true
                        case .observeAgain: x.observe(.did) { new, _ in log.record("c\(new)") }
                        case .writeAgain: x.value = 10
                        case .releaseOwnOwner: first.take()
                        case .releaseLaterOwner: second.take()
                        }
                    }
                    let b = x.observe(.did, boundTo: second.value!.bag) { new, _ in log.record("b\(new)") }
                    observations.put([a, b])
                }
                x.value = 1
                x.value = 2
                #expect(log.events == Self.expected(reentry, at: phase))
                #expect(fixture.ledger.counters.zombies == 0)
                first.take()
                second.take()
            }
            #expect(fixture.ledger.counters == Self.empty)
        }

        /// The whole history of `observedHandler`: a removed, disabled or retired observation is
        /// skipped by the write in progress; one added is called from the next list taken (the did
        /// handlers' list is taken at the store); a nested write is notified in full, inside the
        /// outer one.
        static func expected(_ reentry: ObservedReentry, at phase: ObservationType) -> [String] {
            // `a` up to and including the call that re-enters.
            let head = phase == .will ? ["a:will1"] : ["a:will1", "a:did1"]
            // The rest of write 1 when nothing changed.
            let rest = phase == .will ? ["a:did1", "b1"] : ["b1"]
            let a2 = ["a:will2", "a:did2"]
            switch reentry {
            case .endOwnLifetime, .removeSelf, .releaseOwnOwner:
                return head + ["b1", "b2"]
            case .endLaterLifetime, .removeLater, .disableLater, .retireLater, .releaseLaterOwner:
                return head + (phase == .will ? ["a:did1"] : []) + a2
            case .observeAgain:
                // Added before the store, it is in the list the did handlers are called from.
                return head + rest + (phase == .will ? ["c1"] : []) + a2 + ["b2", "c2"]
            case .writeAgain:
                return head + ["a:will10", "a:did10", "b10"] + rest + a2 + ["b2"]
            }
        }

        /// What a handler does to a two-way binding while a write runs.
        enum BindingReentry: String, CaseIterable, Sendable {
            case unbindBeforeTheStore, unbindAfterTheStore, bindAfterTheStore, partnerUnbinds
        }

        /// `x` and `y`, bound (but for `bindAfterTheStore`); `x = 1` re-enters, then `x = 2`, `y = 3`.
        /// A binding severed by a handler carries nothing more, not even the write in progress; one
        /// made by a handler copies nothing across until the next write (`bind`'s documentation).
        @Test(arguments: BindingReentry.allCases)
        func bindingChangedByAHandler(_ reentry: BindingReentry) {
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            do {
                let x = ObservedProperty(0)
                let y = ObservedProperty(0)
                fixture.run {
                    if reentry != .bindAfterTheStore { #expect(x.bind(y)) }
                    x.observe(.all) { [weak x, weak y] new, old in
                        if old != nil { log.record("x\(new)") }
                        guard new == 1, let x, let y else { return }
                        switch (reentry, old == nil) {
                        case (.unbindBeforeTheStore, true), (.unbindAfterTheStore, false): x.unbind(y)
                        case (.bindAfterTheStore, false): x.bind(y)
                        default: break
                        }
                    }
                    y.observe(.did) { [weak x, weak y] new, _ in
                        log.record("y\(new)")
                        guard reentry == .partnerUnbinds, new == 1, let x, let y else { return }
                        y.unbind(x)
                    }
                }
                fixture.run {
                    x.value = 1
                    x.value = 2
                    y.value = 3
                }
                let expected: [String] =
                    switch reentry {
                    case .unbindBeforeTheStore, .unbindAfterTheStore: ["x1", "x2", "y3"]
                    case .bindAfterTheStore: ["x1", "x2", "y2", "y3", "x3"]
                    case .partnerUnbinds: ["x1", "y1", "x2", "y3"]
                    }
                #expect(log.events == expected)
                #expect((x.value, y.value) == (reentry == .bindAfterTheStore ? (3, 3) : (2, 3)))
                #expect(fixture.ledger.counters.bindings == (reentry == .bindAfterTheStore ? 1 : 0))
            }
            #expect(fixture.ledger.counters == Self.empty)
        }

        static let empty = LedgerSnapshot.Counters()
    }
}
