import Synchronization
import Testing
import Tether

/// Eight threads publishing, writing, ending, removing, disabling, unbinding and adding at once,
/// checked with cutoffs (``Sender``): `LiveData` (with a bag, and bound to a screen) and
/// `@Observed`.
extension Adversarial {
    @Suite struct ObserverRaceTests {
        static let count = 64

        /// Three LiveData, each published by its own thread. On the first: a registration whose bag
        /// ends, one removed, one bound to a screen that is destroyed, one kept; on the second, one
        /// on a child of that bag, one kept; on the third, registrations added while it publishes.
        /// An eighth thread adds registrations with a bag that had already ended.
        @Test func liveDataRegistrationsStopAtTheirEnd() async {
            let fixture = LedgerFixture()
            for round in 0..<raceRounds {
                let data = (0..<3).map { _ in LiveData<Int>() }
                let senders = (0..<3).map { _ in Sender() }
                let (viewer, removed, kept, screen, ended) = fixture.run {
                    (Viewer(), Viewer(), Viewer(), Screen(), DisposeBag())
                }
                let child = fixture.run { DisposeBag(boundTo: viewer.bag) }
                ended.dispose()
                screen.lifecycle.move(to: .resumed)
                // 0: bag ends, 1: removed, 2: screen destroyed, 3 and 5: kept, 4: child bag.
                let got = (0..<6).map { _ in Recorder<Int>() }
                fixture.run {
                    data[0].add(observer: viewer, disposeBag: viewer.bag) { got[0].record($0) }
                    data[0].add(observer: removed, disposeBag: removed.bag) { got[1].record($0) }
                    data[0].observe(boundTo: screen) { got[2].record($0) }
                    data[0].add(observer: kept, disposeBag: kept.bag) { got[3].record($0) }
                    data[1].add(observer: viewer, disposeBag: child) { got[4].record($0) }
                    data[1].add(observer: kept, disposeBag: kept.bag) { got[5].record($0) }
                }
                let cuts = Recorder<(String, [Cutoff])>()
                let added = Recorder<Recorder<Int>>()
                let zombies = Recorder<Int>()
                var threads: [@Sendable () -> Void] = (0..<3).map { index in
                    { senders[index].send(Self.count) { data[index].publish(value: $0) } }
                }
                let act = { (name: String, salt: Int, action: @escaping @Sendable () -> Void) in
                    threads.append {
                        senders[0].wait(until: cutPoint(round, of: Self.count, salt: salt))
                        cuts.record((name, Sender.cut(senders, around: action)))
                    }
                }
                act("bag", 0) { viewer.bag.dispose() }
                act("remove", 1) { data[0].remove(observer: removed) }
                act("destroy", 2) { screen.lifecycle.move(to: .destroyed) }
                threads.append {
                    for step in stride(from: 1, through: Self.count, by: 8) {
                        senders[2].wait(until: step)
                        let recorder = Recorder<Int>()
                        fixture.run {
                            data[2].add(observer: kept, disposeBag: kept.bag) { recorder.record($0) }
                        }
                        added.record(recorder)
                    }
                }
                threads.append {
                    for step in 1...Self.count {
                        senders[step % 3].wait(until: step)
                        fixture.run {
                            data[step % 3].add(observer: kept, disposeBag: ended) { zombies.record($0) }
                        }
                    }
                }
                await onThreads(threads)

                let cut = Dictionary(uniqueKeysWithValues: cuts.events)
                let all = Cutoff(lower: Self.count, upper: Self.count)
                // Published by one thread only, a LiveData delivers each value before the next.
                expectPrefix(got[0].events, cut: cut["bag"]![0], "bag ended, round \(round)")
                expectPrefix(got[1].events, cut: cut["remove"]![0], "removed, round \(round)")
                expectPrefix(got[2].events, cut: cut["destroy"]![0], "screen destroyed, round \(round)")
                expectPrefix(got[3].events, cut: all, "kept, round \(round)")
                expectPrefix(got[4].events, cut: cut["bag"]![1], "child bag, round \(round)")
                expectPrefix(got[5].events, cut: all, "kept on the second, round \(round)")
                for recorder in added.events {
                    // Added while another thread publishes: increasing, ending on the newest.
                    let values = recorder.events
                    #expect(values == values.sorted() && Set(values).count == values.count)
                    #expect(values.last == Self.count)
                }
                #expect(zombies.events.isEmpty, "registered with an ended bag")
                #expect(data[0].observerCount == 1)
                #expect(data[1].observerCount == 1)
                #expect(data[2].observerCount == added.events.count)
                withExtendedLifetime((viewer, removed, kept, screen, ended, child)) {}
            }
            #expect(Self.settled(fixture.ledger.counters))
        }

        /// Two properties, each written by its own thread; the first is bound to a third. On the
        /// first: an observation whose lifetime ends, one removed, one disabled; on the second, one
        /// made obsolete, one kept. A seventh thread unbinds, an eighth adds observations as the
        /// writes go.
        @Test func observationsStopAtTheirEnd() async {
            let fixture = LedgerFixture()
            for round in 0..<raceRounds {
                let x = (0..<2).map { _ in ObservedProperty(0) }
                let y = ObservedProperty(0)
                #expect(fixture.run { x[0].bind(y) })
                let senders = (0..<2).map { _ in Sender() }
                let owner = fixture.run { Slot(StreamsOwner()) }
                // 0: lifetime ends, 1: removed, 2: disabled, 3: obsolete, 4: kept, 5: the bound one.
                let got = (0..<6).map { _ in Recorder<Int>() }
                let observations = fixture.run {
                    [
                        x[0].observe(.did, boundTo: owner.value!.bag) { new, _ in got[0].record(new) },
                        x[0].observe(.did) { new, _ in got[1].record(new) },
                        x[0].observe(.did) { new, _ in got[2].record(new) },
                        x[1].observe(.did) { new, _ in got[3].record(new) },
                        x[1].observe(.did) { new, _ in got[4].record(new) },
                        y.observe(.did) { new, _ in got[5].record(new) },
                    ]
                }
                let cuts = Recorder<(String, Cutoff)>()
                let added = Recorder<Recorder<Int>>()
                var threads: [@Sendable () -> Void] = (0..<2).map { index in
                    { senders[index].send(Self.count) { x[index].value = $0 } }
                }
                let act = { (name: String, sender: Int, salt: Int, action: @escaping @Sendable () -> Void) in
                    threads.append {
                        senders[sender].wait(until: cutPoint(round, of: Self.count, salt: salt))
                        cuts.record((name, Sender.cut([senders[sender]], around: action)[0]))
                    }
                }
                act("lifetime", 0, 0) { owner.value?.bag.end() }
                act("remove", 0, 1) { x[0].remove(observations[1]) }
                act("disable", 0, 2) { observations[2].kind = .disabled }
                act("obsolete", 1, 3) { observations[3].isObsolete = true }
                act("unbind", 0, 4) { x[0].unbind(y) }
                threads.append {
                    for step in stride(from: 1, through: Self.count, by: 8) {
                        senders[1].wait(until: step)
                        let recorder = Recorder<Int>()
                        _ = fixture.run { x[1].observe(.did) { new, _ in recorder.record(new) } }
                        added.record(recorder)
                    }
                }
                await onThreads(threads)

                let cut = Dictionary(uniqueKeysWithValues: cuts.events)
                // Written by one thread only, a property notifies each write before the next.
                expectPrefix(got[0].events, cut: cut["lifetime"]!, "lifetime ended, round \(round)")
                expectPrefix(got[1].events, cut: cut["remove"]!, "removed, round \(round)")
                expectPrefix(got[2].events, cut: cut["disable"]!, "disabled, round \(round)")
                expectPrefix(got[3].events, cut: cut["obsolete"]!, "obsolete, round \(round)")
                expectPrefix(got[4].events, cut: Cutoff(lower: Self.count, upper: Self.count), "kept")
                expectPrefix(got[5].events, cut: cut["unbind"]!, "bound, round \(round)")
                for recorder in added.events {
                    // Added while the writes go: every write from some point on, to the last.
                    let values = recorder.events
                    #expect(
                        values
                            == Array(stride(from: Self.count + 1 - values.count, through: Self.count, by: 1)))
                }
                #expect(y.value == got[5].events.last ?? 0)
                owner.take()
            }
            #expect(Self.settled(fixture.ledger.counters))
        }

        /// Nothing left: no owner, no entry, none ending or leaked. (Zombie deliveries may have been
        /// counted: a value in flight when its owner ended is delivered after the end.)
        static func settled(_ counters: LedgerSnapshot.Counters) -> Bool {
            var counters = counters
            counters.zombies = 0
            return counters == LedgerSnapshot.Counters()
        }
    }
}
