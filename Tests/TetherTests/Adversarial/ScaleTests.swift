import TestSupport
import Testing
import Tether

/// 100,000 bindings made and ended leave the ledger as they found it: no entry, no owner, every
/// counter at 0, no verdict timer, and an event log no longer than its capacity (TheLedger.md: a
/// bind-and-end leaves the ledger as it found it; the log keeps the newest events).
extension Adversarial {
    @Suite struct ScaleTests {
        #if TETHER_TSAN
        static let bindings = 10_000
        #else
        static let bindings = 100_000
        #endif

        /// Every kind of binding, made by owners on shared sources.
        enum Kind: CaseIterable {
            case boundSink, storedSubscription, fusedSubscription, asyncSink, lifetimeTask
            case liveDataObserver, observedObservation, onDispose, childLifetime
        }

        /// The shared sources: what a long-lived model offers many short-lived screens.
        final class Sources: Sendable {
            let subject = Slot(PassthroughSubject<Int, Never>())
            let holder = Slot(FuseHolder())
            let data = LiveData(0)
            let property = ObservedProperty(0)

            /// Binds one `kind` to `bag`.
            func bind(_ kind: Kind, to bag: DisposeBag, owner: AnyObject) {
                switch kind {
                case .boundSink: subject.value!.sink(boundTo: bag) { _ in }
                case .storedSubscription: subject.value!.sink { _ in }.store(boundTo: bag)
                case .fusedSubscription:
                    subject.value!.fuse(heldBy: holder.value!, on: \.cancellables).sink { _ in }.store(
                        boundTo: bag)
                case .asyncSink: Just(1).asyncSink { _ in }.store(boundTo: bag)
                case .lifetimeTask: Task(boundTo: bag) {}
                case .liveDataObserver: data.add(observer: owner, disposeBag: bag) { _ in }
                case .observedObservation: property.observe(.did, boundTo: bag) { _, _ in }
                case .onDispose: bag.onEnd {}
                case .childLifetime: _ = DisposeBag(boundTo: bag)
                }
            }
        }

        @Test func ownersEachWithABindingLeaveNothingOnceEnded() async {
            let fixture = LedgerFixture()
            let sources = Sources()
            fixture.run {
                for index in 0..<Self.bindings {
                    let owner = StreamsOwner()
                    sources.bind(Kind.allCases[index % Kind.allCases.count], to: owner.bag, owner: owner)
                    // Half end first, then go; half just go.
                    if index % 2 == 0 { owner.bag.end() }
                }
            }
            // Tasks return on their own, after their owner went.
            await waitUntil { fixture.ledger.counters.tasks == 0 }
            Self.expectNothingLeft(fixture, [sources])
        }

        /// Each binding on a source of its own: how a source scales with its own observers is not
        /// what this measures (an `ObservedProperty` with 10,000 observations takes seconds to make
        /// them: each `observe` purges by looking at every observation).
        @Test func oneLifetimeEndsAHundredThousandBindingsInReverseOrder() async {
            let fixture = LedgerFixture()
            let sources = (0..<Self.bindings).map { _ in Sources() }
            let order = Recorder<Int>()
            do {
                let owner = fixture.run { StreamsOwner() }
                fixture.run {
                    for index in 0..<Self.bindings {
                        let kind = Kind.allCases[index % Kind.allCases.count]
                        if kind == .onDispose {
                            owner.bag.onEnd { order.record(index) }
                        } else {
                            sources[index].bind(kind, to: owner.bag, owner: owner)
                        }
                    }
                }
                #expect(fixture.ledger.counters.entries > Self.bindings / 2)
                owner.bag.end()
                #expect(fixture.ledger.counters.entries <= Self.bindings / Kind.allCases.count)
            }
            let ended = order.events
            #expect(ended.count == Self.bindings / Kind.allCases.count)
            #expect(ended == ended.sorted(by: >), "in reverse order of adding")
            await waitUntil { fixture.ledger.counters.tasks == 0 }
            Self.expectNothingLeft(fixture, sources)
        }

        /// The ledger as it was before the bindings, and the sources holding nothing of them. A
        /// verdict timer armed for an owner that ended before it went may still be pending; once the
        /// grace period passes, none is.
        static func expectNothingLeft(
            _ fixture: LedgerFixture, _ sources: [Sources], sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let snapshot = fixture.ledger.snapshotRearmingOnChange()
            #expect(snapshot.counters == LedgerSnapshot.Counters(), sourceLocation: sourceLocation)
            #expect(snapshot.owners.isEmpty && snapshot.unowned.isEmpty, sourceLocation: sourceLocation)
            #expect(
                snapshot.events.count == 200, "the log keeps its capacity", sourceLocation: sourceLocation)
            #expect(sources.allSatisfy { $0.data.observerCount == 0 }, sourceLocation: sourceLocation)
            // One more fuse on each holder takes out the tokens of the fuses no longer used.
            let holders = sources.map { source in
                let holder = source.holder.value!
                _ = source.subject.value!.fuse(heldBy: holder, on: \.cancellables)
                return holder.cancellables.count
            }
            #expect(
                holders.allSatisfy { $0 == 1 }, "unused fuses left the holder", sourceLocation: sourceLocation
            )
            fixture.passGracePeriod()
            #expect(fixture.clock.pendingCount == 0, "no verdict waits", sourceLocation: sourceLocation)
            #expect(fixture.ledger.snapshotRearmingOnChange().leaks.isEmpty, sourceLocation: sourceLocation)
            #expect(fixture.ledger.counters == LedgerSnapshot.Counters(), sourceLocation: sourceLocation)
        }
    }
}
