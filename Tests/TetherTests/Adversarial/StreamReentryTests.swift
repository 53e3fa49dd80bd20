import TestSupport
import Testing
import Tether

/// A `sink(boundTo:)` closure, a fused subscriber and an `asyncSink` body re-entering every
/// operation while they run. The promises: `sink(boundTo:)` (nothing reaches a bound sink after its
/// lifetime's end has returned), Fuse.md (a blow during a delivery finishes after it; a subscriber
/// arriving after the blow is finished at once) and AsyncSink.md (cancelling, or ending the
/// lifetime the sink is in, cancels every body still running, and no body starts afterwards).
extension Adversarial {
    @Suite struct StreamReentryTests {
        /// What sink `a` (bound to the owner's bag) does with value 1. Sink `b` is a plain
        /// subscription handed to a child bag, with a token.
        enum SinkReentry: String, CaseIterable, Sendable {
            case endOwnLifetime, endChildLifetime, removeLaterToken, addSink, sendAgain, finish
            case releaseOwner
        }

        @Test(arguments: SinkReentry.allCases)
        func boundSinkClosure(_ reentry: SinkReentry) {
            let expected: [String] =
                switch reentry {
                // The child ends with its parent, before b is given 1.
                case .endOwnLifetime, .finish, .releaseOwner: ["a1"]
                case .endChildLifetime, .removeLaterToken: ["a1", "a2", "a3"]
                // Subscribed during a send, c gets the values sent after it.
                case .addSink: ["a1", "b1", "a2", "b2", "c2", "a3", "b3", "c3"]
                case .sendAgain: ["a1", "a10", "b10", "b1", "a2", "b2", "a3", "b3"]
                }
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let subject = OrderedSubject()
            let owner = fixture.run { Slot(StreamsOwner()) }
            let child = Slot<DisposeBag>()
            let token = Slot<Lifetime.Token>()
            fixture.run {
                // Only the owner holds its bag: releasing the owner ends it.
                let bag = owner.value!.bag
                child.put(DisposeBag(boundTo: bag))
                subject.sink(boundTo: bag) { [weak bag] value in
                    log.record("a\(value)")
                    guard value == 1, let bag else { return }
                    switch reentry {
                    case .endOwnLifetime: bag.end()
                    case .endChildLifetime: child.value?.end()
                    case .removeLaterToken: token.value.map { _ = child.value?.remove($0) }
                    case .addSink: subject.sink(boundTo: bag) { log.record("c\($0)") }
                    case .sendAgain: subject.send(10)
                    case .finish: subject.send(completion: .finished)
                    case .releaseOwner: owner.take()
                    }
                }
                token.put(subject.sink { log.record("b\($0)") }.store(boundTo: child.value!))
            }
            for value in 1...3 { subject.send(value) }
            #expect(log.events == expected)
            #expect(fixture.ledger.counters.zombies == 0)
            owner.take()
            child.take()
            #expect(fixture.ledger.counters == LedgerSnapshot.Counters())
        }

        /// What fused subscriber `a` does with value 1 (`b` is fused too, subscribed after it).
        enum FuseReentry: String, CaseIterable, Sendable {
            case cancelSelf, cancelLater, endLifetime, releaseHolder, cancelToken, subscribeAgain
            case sendAgain, subscribeAfterTheBlow
        }

        @Test(arguments: FuseReentry.allCases)
        func fusedSubscriber(_ reentry: FuseReentry) {
            let subscribed = ["a:subscribed", "b:subscribed", "a1"]
            let expected: [String] =
                switch reentry {
                case .cancelSelf, .endLifetime: subscribed + ["b1", "b2", "b3"]
                case .cancelLater: subscribed + ["a2", "a3"]
                // b, idle, is finished at once; a after its delivery.
                case .releaseHolder, .cancelToken: subscribed + ["b:finished", "a:finished"]
                case .subscribeAgain:
                    subscribed + ["c:subscribed", "b1", "a2", "b2", "c2", "a3", "b3", "c3"]
                case .sendAgain: subscribed + ["a10", "b10", "b1", "a2", "b2", "a3", "b3"]
                case .subscribeAfterTheBlow:
                    subscribed + ["b:finished", "a:finished", "c:subscribed", "c:finished"]
                }
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let subject = OrderedSubject()
            let holder = Slot(FuseHolder())
            let owner = fixture.run { Slot(StreamsOwner()) }
            let fused = Slot(
                subject.fuse(heldBy: holder.value!, on: \.cancellables).eraseToAnyPublisher())
            let subscribers = Slot<[HookedSubscriber]>()
            let c = HookedSubscriber("c", log: log)
            let a = HookedSubscriber("a", log: log) { signal in
                let blows = reentry == .subscribeAfterTheBlow
                if blows, signal == .finished { return fused.value!.subscribe(c) }
                guard signal == .value(1) else { return }
                switch reentry {
                case .cancelSelf: subscribers.value?[0].cancel()
                case .cancelLater: subscribers.value?[1].cancel()
                case .endLifetime: owner.value?.bag.end()
                case .releaseHolder, .subscribeAfterTheBlow: holder.take()
                case .cancelToken: holder.value?.cancellables.first?.cancel()
                case .subscribeAgain: fused.value!.subscribe(c)
                case .sendAgain: subject.send(10)
                }
            }
            let b = HookedSubscriber("b", log: log)
            subscribers.put([a, b])
            fixture.run {
                fused.value!.subscribe(a)
                fused.value!.subscribe(b)
                AnyCancellable(a).store(boundTo: owner.value!.bag)
            }
            for value in 1...3 { subject.send(value) }
            #expect(log.events == expected)
            a.cancel()
            b.cancel()
            c.cancel()
            owner.take()
            #expect(fixture.ledger.counters == LedgerSnapshot.Counters())
        }

        /// What body 1 does. The sink is stored in the owner's bag (with a token), or, for
        /// `cancel`, only kept by the test.
        enum BodyReentry: String, CaseIterable, Sendable {
            case cancel, endLifetime, removeToken, releaseOwner, endThenSend, sendAgain, addSink
        }

        static let overlaps: [AsyncSinkOverlap] = [.concurrent, .serial, .latest, .dropWhileBusy]

        @Test(arguments: BodyReentry.allCases, overlaps)
        func asyncSinkBody(_ reentry: BodyReentry, overlap: AsyncSinkOverlap) async {
            let fixture = LedgerFixture()
            let log = Recorder<String>()
            let subject = Slot(PassthroughSubject<Int, Never>())
            let owner = fixture.run { Slot(StreamsOwner()) }
            let kept = Slot<AnyCancellable>()
            let token = Slot<Lifetime.Token>()
            let body: @Sendable (Int) async -> Void = { value in
                log.record("start \(value)")
                if value == 1 {
                    switch reentry {
                    case .cancel: kept.value?.cancel()
                    case .endLifetime: owner.value?.bag.end()
                    case .removeToken: token.value.map { _ = owner.value?.bag.remove($0) }
                    case .releaseOwner: owner.take()
                    case .endThenSend:
                        owner.value?.bag.end()
                        subject.value!.send(20)
                    case .sendAgain: subject.value!.send(10)
                    case .addSink:
                        if let bag = owner.value?.bag {
                            subject.value!.asyncSink { log.record("new \($0)") }.store(boundTo: bag)
                        }
                    }
                }
                log.record("end \(value)\(Task.isCancelled ? " cancelled" : "")")
            }
            fixture.run {
                let sink = subject.value!.asyncSink(overlap: overlap, receiveValue: body)
                if reentry == .cancel {
                    kept.put(sink)
                } else {
                    token.put(sink.store(boundTo: owner.value!.bag))
                }
            }
            subject.value!.send(1)
            let cancels = [.cancel, .endLifetime, .removeToken, .releaseOwner, .endThenSend].contains(reentry)
            let first: [String] =
                switch reentry {
                case _ where cancels: ["start 1", "end 1 cancelled"]
                // The body for 10 runs after body 1 (serial), is dropped (dropWhileBusy), or runs
                // beside it, cancelling it (latest).
                case .sendAgain where overlap == .serial: ["start 1", "end 1", "start 10", "end 10"]
                case .sendAgain where overlap == .dropWhileBusy: ["start 1", "end 1"]
                case .sendAgain where overlap == .latest:
                    ["start 1", "end 1 cancelled", "start 10", "end 10"]
                case .sendAgain: ["start 1", "end 1", "start 10", "end 10"]
                default: ["start 1", "end 1"]
                }
            await waitUntil { log.events.count == first.count && fixture.ledger.counters.tasks == 0 }
            subject.value!.send(2)
            let second = cancels ? [] : ["start 2", "end 2"] + (reentry == .addSink ? ["new 2"] : [])
            await waitUntil {
                log.events.count == first.count + second.count && fixture.ledger.counters.tasks == 0
            }
            let isNew = { (event: String) in event.hasPrefix("new") }
            let events = log.events.filter { !isNew($0) }
            let expected = (first + second).filter { !isNew($0) }
            if overlap == .serial || cancels {
                #expect(events == expected)
            } else {
                // Bodies that run side by side: each value's history, in order.
                #expect(Self.perValue(events) == Self.perValue(expected))
            }
            #expect(log.events.filter(isNew) == second.filter(isNew))
            owner.take()
            kept.take()
            #expect(fixture.ledger.counters == LedgerSnapshot.Counters())
        }

        /// `["start 1", "start 10", "end 1"]` → `["1": ["start 1", "end 1"], "10": ["start 10"]]`.
        static func perValue(_ events: [String]) -> [Substring: [String]] {
            Dictionary(grouping: events) { $0.split(separator: " ")[1] }
        }
    }
}
