import Synchronization
import TestSupport
import Testing
import Tether

/// Eight threads sending, ending, removing, cancelling and subscribing at once, checked with
/// cutoffs (``Sender``): `sink(boundTo:)`, the fuse and `asyncSink`. Each round makes everything
/// anew; the actions fall at a different point of the streams each round.
extension Adversarial {
    @Suite struct StreamRaceTests {
        static let count = 64

        /// Four sinks, two on a bag and two on its child, each fed by its own thread; the child and
        /// the bag end on two more; a seventh binds new sinks to the bag, an eighth adds and removes
        /// end actions, while it all happens.
        @Test func boundSinksStopAtTheirLifetimesEnd() async {
            let fixture = LedgerFixture()
            for round in 0..<raceRounds {
                let subjects = (0..<4).map { _ in Slot(PassthroughSubject<Int, Never>()) }
                let senders = (0..<4).map { _ in Sender() }
                let received = (0..<4).map { _ in Recorder<Int>() }
                let owner = fixture.run { Slot(StreamsOwner()) }
                let bag = owner.value!.bag
                let child = fixture.run { DisposeBag(boundTo: bag) }
                fixture.run {
                    for index in 0..<4 {
                        subjects[index].value!.sink(boundTo: index < 2 ? bag : child) {
                            received[index].record($0)
                        }
                    }
                }
                let cuts = Recorder<(String, [Cutoff])>()
                let ended = Atomic<Bool>(false)
                let late = Recorder<(endedBefore: Bool, received: Recorder<Int>)>()
                let actions = Recorder<(removed: Bool, ran: Recorder<Int>)>()
                var threads: [@Sendable () -> Void] = (0..<4).map { index in
                    { senders[index].send(Self.count) { subjects[index].value!.send($0) } }
                }
                threads.append {
                    senders[2].wait(until: cutPoint(round, of: Self.count))
                    let cut = Sender.cut(Array(senders[2...]), around: child.end)
                    cuts.record(("child", cut))
                }
                threads.append {
                    senders[0].wait(until: cutPoint(round, of: Self.count, salt: 1))
                    let cut = Sender.cut(senders, around: bag.end)
                    ended.store(true, ordering: .releasing)
                    cuts.record(("bag", cut))
                }
                threads.append {
                    // Spread over the stream, and one more once the end has surely returned.
                    for step in stride(from: 1, through: Self.count, by: 8) + [Self.count] {
                        senders[0].wait(until: step)
                        if step == Self.count {
                            waitUntil("the bag's end to return") { ended.load(ordering: .acquiring) }
                        }
                        let endedBefore = ended.load(ordering: .acquiring)
                        let got = Recorder<Int>()
                        fixture.run { subjects[0].value!.sink(boundTo: bag) { got.record($0) } }
                        late.record((endedBefore, got))
                    }
                }
                threads.append {
                    for step in 1...Self.count {
                        senders[1].wait(until: step)
                        let ran = Recorder<Int>()
                        let token = bag.onEnd { ran.record(1) }
                        actions.record((bag.remove(token), ran))
                    }
                }
                await onThreads(threads)

                let cut = Dictionary(uniqueKeysWithValues: cuts.events)
                let bagCut = cut["bag"]!
                let childCut = cut["child"]!
                for index in 0..<2 {
                    expectPrefix(received[index].events, cut: bagCut[index], "sink \(index), round \(round)")
                }
                for index in 2..<4 {
                    // The child ends by its own end or by its parent's, whichever comes first.
                    let cut = Cutoff.either(childCut[index - 2], bagCut[index])
                    expectPrefix(received[index].events, cut: cut, "child's sink \(index), round \(round)")
                }
                for (endedBefore, got) in late.events {
                    let values = got.events
                    if endedBefore { #expect(values.isEmpty, "bound after the end returned") }
                    #expect(values == Array(values.first.map { $0..<($0 + values.count) } ?? 0..<0))
                    #expect(values.last ?? 0 <= bagCut[0].upper)
                }
                for (removed, ran) in actions.events {
                    #expect(ran.events.count == (removed ? 0 : 1), "removed: never runs; else runs once")
                }
                owner.take()
                #expect(fixture.ledger.counters.entries == 0)
            }
            #expect(fixture.ledger.counters.owners == 0)
            #expect(fixture.ledger.counters.ending == 0)
        }

        /// Three fused streams on one holder, each sent by its own thread, each with two
        /// subscribers; the holder goes on a fourth thread (the fuse blows), one subscriber is
        /// cancelled on a fifth, a sixth subscribes late ones, a seventh ends a bag holding a bound
        /// sink behind a fuse, and an eighth subscribes and cancels subscribers as values pass.
        @Test func fusedSubscriptionsStopAtTheBlow() async {
            let fixture = LedgerFixture()
            for round in 0..<raceRounds {
                let subjects = (0..<3).map { _ in Slot(PassthroughSubject<Int, Never>()) }
                let senders = (0..<3).map { _ in Sender() }
                let holder = Slot(FuseHolder())
                let fused = subjects.map { subject in
                    Slot(
                        subject.value!.fuse(heldBy: holder.value!, on: \.cancellables).eraseToAnyPublisher())
                }
                let logs = (0..<7).map { _ in Recorder<String>() }
                let subscribers = (0..<6).map { HookedSubscriber("", log: logs[$0]) }
                let bound = Recorder<Int>()
                let owner = fixture.run { Slot(StreamsOwner()) }
                fixture.run {
                    for (index, subscriber) in subscribers.enumerated() {
                        fused[index / 2].value!.subscribe(subscriber)
                    }
                    fused[2].value!.sink(boundTo: owner.value!.bag) { bound.record($0) }
                }
                let cuts = Recorder<(String, [Cutoff])>()
                let blown = Atomic<Bool>(false)
                let late = Recorder<(blownBefore: Bool, log: Recorder<String>)>()
                let churn = Recorder<(log: Recorder<String>, cut: Cutoff)>()
                var threads: [@Sendable () -> Void] = (0..<3).map { index in
                    { senders[index].send(Self.count) { subjects[index].value!.send($0) } }
                }
                threads.append {
                    senders[0].wait(until: cutPoint(round, of: Self.count))
                    let cut = Sender.cut(senders) { holder.take() }
                    blown.store(true, ordering: .releasing)
                    cuts.record(("blow", cut))
                }
                threads.append {
                    senders[0].wait(until: cutPoint(round, of: Self.count, salt: 1))
                    let cut = Sender.cut(senders, around: subscribers[0].cancel)
                    cuts.record(("cancel", cut))
                }
                threads.append {
                    // Spread over the stream, and one more once the blow has surely returned.
                    for step in stride(from: 1, through: Self.count, by: 8) + [Self.count] {
                        senders[1].wait(until: step)
                        if step == Self.count {
                            waitUntil("the fuse to blow") { blown.load(ordering: .acquiring) }
                        }
                        let blownBefore = blown.load(ordering: .acquiring)
                        let log = Recorder<String>()
                        fixture.run { fused[1].value!.subscribe(HookedSubscriber("", log: log)) }
                        late.record((blownBefore, log))
                    }
                }
                threads.append {
                    senders[2].wait(until: cutPoint(round, of: Self.count, salt: 2))
                    let cut = Sender.cut(senders) { owner.value?.bag.end() }
                    cuts.record(("bag", cut))
                }
                threads.append {
                    // Subscribers that come and go while values pass and the fuse blows.
                    for step in stride(from: 1, to: Self.count, by: 8) {
                        senders[2].wait(until: step)
                        let log = Recorder<String>()
                        let subscriber = HookedSubscriber("", log: log)
                        fixture.run { fused[2].value!.subscribe(subscriber) }
                        senders[2].wait(until: step + 4)
                        churn.record((log, Sender.cut([senders[2]], around: subscriber.cancel)[0]))
                    }
                }
                await onThreads(threads)

                let cut = Dictionary(uniqueKeysWithValues: cuts.events)
                let blow = cut["blow"]!
                let cancel = cut["cancel"]!
                for (index, log) in logs.prefix(6).enumerated() {
                    let stream = index / 2
                    // Cancelled or blown, whichever first; finished only by the blow.
                    let cut = index == 0 ? Cutoff.either(cancel[0], blow[0]) : blow[stream]
                    Self.expectFused(log.events, from: 1, cut: cut, finished: index == 0 ? nil : true)
                }
                expectPrefix(bound.events, cut: Cutoff.either(cut["bag"]![2], blow[2]), "bound")
                for (blownBefore, log) in late.events {
                    if blownBefore {
                        #expect(
                            log.events == [":subscribed", ":finished"], "subscribed after the blow returned")
                    } else {
                        Self.expectFused(log.events, from: nil, cut: blow[1], finished: true)
                    }
                }
                for (log, cancelled) in churn.events {
                    Self.expectFused(log.events, from: nil, cut: .either(cancelled, blow[2]), finished: nil)
                }
                subscribers[0].cancel()
                owner.take()
                #expect(fixture.ledger.counters.entries == 0)
            }
            #expect(fixture.ledger.counters.owners == 0)
        }

        /// Four asyncSinks, one per overlap policy, each fed by its own thread: two stored in a bag
        /// that ends on a fifth thread, two cancelled on a sixth and a seventh; an eighth starts
        /// `bag.task`s as the bag ends. A body whose first line runs after its sink's cancel (or its
        /// bag's end) returned must find itself cancelled — the cancel reached it; none starts for a
        /// value sent after that; no task started after the end returned runs its body.
        @Test func asyncSinkBodiesStartNoMoreOnceCancelled() async {
            let fixture = LedgerFixture()
            let overlaps: [AsyncSinkOverlap] = [.concurrent, .serial, .latest, .dropWhileBusy]
            for round in 0..<raceRounds {
                let subjects = (0..<4).map { _ in Slot(PassthroughSubject<Int, Never>()) }
                let senders = (0..<4).map { _ in Sender() }
                let returned = (0..<4).map { _ in Flag() }
                let started = (0..<4).map { _ in Recorder<Int>() }
                let uncancelled = Recorder<String>()
                let owner = fixture.run { Slot(StreamsOwner()) }
                let bag = owner.value!.bag
                let kept = Slot<[AnyCancellable]>([])
                fixture.run {
                    for index in 0..<4 {
                        let sink = subjects[index].value!.asyncSink(overlap: overlaps[index]) { value in
                            let afterCancel = returned[index].isRaised
                            if afterCancel && !Task.isCancelled {
                                uncancelled.record("\(overlaps[index]) \(value)")
                            }
                            started[index].record(value)
                            for _ in 0..<3 { await Task.yield() }
                        }
                        if index < 2 { sink.store(boundTo: bag) } else { kept.put(kept.value! + [sink]) }
                    }
                }
                let cuts = Recorder<(Int, Cutoff)>()
                let tasks = Recorder<(endedBefore: Bool, ran: Recorder<Int>, task: Task<Void, Never>)>()
                var threads: [@Sendable () -> Void] = (0..<4).map { index in
                    { senders[index].send(Self.count) { subjects[index].value!.send($0) } }
                }
                threads.append {
                    senders[0].wait(until: cutPoint(round, of: Self.count))
                    let cut = Sender.cut(senders, around: bag.end)
                    returned[0].raise()
                    returned[1].raise()
                    cuts.record((0, cut[0]))
                    cuts.record((1, cut[1]))
                }
                for index in 2..<4 {
                    threads.append {
                        senders[index].wait(until: cutPoint(round, of: Self.count, salt: index))
                        let cut = Sender.cut([senders[index]]) { kept.value![index - 2].cancel() }
                        returned[index].raise()
                        cuts.record((index, cut[0]))
                    }
                }
                threads.append {
                    for step in stride(from: 1, through: Self.count, by: 4) {
                        senders[0].wait(until: step)
                        let endedBefore = returned[0].isRaised
                        let ran = Recorder<Int>()
                        let task = fixture.run {
                            Task(boundTo: bag) {
                                let afterEnd = returned[0].isRaised
                                if afterEnd && !Task.isCancelled { uncancelled.record("task \(step)") }
                                ran.record(step)
                            }
                        }
                        tasks.record((endedBefore, ran, task))
                    }
                }
                await onThreads(threads)

                for (endedBefore, ran, task) in tasks.events {
                    await task.value
                    if endedBefore { #expect(ran.events.isEmpty, "started after the end returned") }
                }
                await waitUntil { fixture.ledger.counters.tasks == 0 }
                #expect(
                    uncancelled.events.isEmpty, "bodies that started, uncancelled, after the cancel returned")
                for (index, cut) in cuts.events {
                    #expect(
                        started[index].events.allSatisfy { $0 <= cut.upper },
                        "\(overlaps[index]), round \(round)")
                }
                owner.take()
                kept.take()
                // A serial body that returned just before the cancel may still be starting its
                // successor, which finds the sink cancelled and ends its entry at once.
                await waitUntil { fixture.ledger.counters.entries == 0 }
            }
            #expect(fixture.ledger.counters.owners == 0)
        }

        /// A fused subscriber's whole history: subscribed, consecutive values (from 1, or from any
        /// value for a late one), at most `cut.upper`, at least `cut.lower` for one there from the
        /// start, then finished once (or, when `finished` is nil, finished or not).
        static func expectFused(
            _ events: [String], from first: Int?, cut: Cutoff, finished: Bool?,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let values = events.compactMap { Int($0) }
            let ends = events.filter { $0 == ":finished" }.count
            #expect(events.first == ":subscribed", sourceLocation: sourceLocation)
            #expect(
                events.dropFirst().prefix(values.count).map { Int($0) } == values,
                sourceLocation: sourceLocation)
            #expect(ends == 0 || events.last == ":finished", sourceLocation: sourceLocation)
            #expect(events.count == 1 + values.count + ends, sourceLocation: sourceLocation)
            if let finished {
                #expect(ends == (finished ? 1 : 0), sourceLocation: sourceLocation)
            } else {
                #expect(ends <= 1, sourceLocation: sourceLocation)
            }
            let start = first ?? values.first ?? 1
            #expect(values == Array(start..<(start + values.count)), sourceLocation: sourceLocation)
            #expect((values.last ?? 0) <= cut.upper, sourceLocation: sourceLocation)
            if first != nil { #expect(values.count >= cut.lower, sourceLocation: sourceLocation) }
        }
    }
}
