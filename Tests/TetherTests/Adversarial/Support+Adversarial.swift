import Foundation
import Synchronization
import TestSupport
import Testing
import Tether

/// The adversarial suite of issue 13: callbacks that re-enter Tether, threads that race it, scale,
/// and teardown order. Its suites are nested here, so `swift test --filter Adversarial` runs them.
enum Adversarial {}

/// Runs each body on a thread of its own — real threads, not the cooperative pool, so that the
/// pool stays free to run the tasks the bodies start — all released together once every thread
/// is up. Returns when every body has returned and been released (with what it captured).
func onThreads(_ bodies: [@Sendable () -> Void]) async {
    let count = bodies.count
    let ready = Atomic<Int>(0)
    let remaining = Atomic<Int>(count)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let done = Slot(done)
        for body in bodies {
            let body = Slot(body)
            let thread = Thread {
                ready.add(1, ordering: .acquiringAndReleasing)
                waitUntil("every thread to start") { ready.load(ordering: .acquiring) == count }
                body.take()?()
                if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    done.take()?.resume()
                }
            }
            thread.start()
        }
    }
}

/// A subscriber that records what it receives under its name (`a:subscribed`, `a1`, `a:finished`)
/// and calls `hook` from inside each delivery, so the delivery can re-enter.
final class HookedSubscriber: Subscriber, Cancellable, Sendable {
    typealias Input = Int
    typealias Failure = Never

    enum Signal: Equatable, Sendable {
        case value(Int)
        case finished
    }

    let name: String
    private let log: Recorder<String>
    private let hook: @Sendable (Signal) -> Void
    private let subscription = Slot<any Subscription>()

    init(_ name: String, log: Recorder<String>, hook: @escaping @Sendable (Signal) -> Void = { _ in }) {
        self.name = name
        self.log = log
        self.hook = hook
    }

    func receive(subscription: any Subscription) {
        log.record("\(name):subscribed")
        self.subscription.put(subscription)
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        log.record("\(name)\(input)")
        hook(.value(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        log.record("\(name):finished")
        hook(.finished)
    }

    func cancel() { subscription.take()?.cancel() }
}

/// A holder of fuse tokens, as in seed 002.
final class FuseHolder {
    var cancellables = Set<AnyCancellable>()
}

/// A subject that delivers to its subscribers in the order they subscribed. OpenCombine's
/// `PassthroughSubject` keeps them in a set, so its order changes from run to run (Swift's hashing
/// is seeded per process), and a whole history would not be deterministic. As a subject does, a
/// send goes to the subscribers present when it began, skipping any cancelled meanwhile; demand is
/// not tracked (every subscriber here asks for `.unlimited`).
final class OrderedSubject: Publisher, Sendable {
    typealias Output = Int
    typealias Failure = Never

    private final class Conduit: Subscription, Sendable {
        let downstream: Slot<AnySubscriber<Int, Never>>
        weak let subject: OrderedSubject?

        init(_ downstream: AnySubscriber<Int, Never>, subject: OrderedSubject) {
            self.downstream = Slot(downstream)
            self.subject = subject
        }

        func request(_ demand: Subscribers.Demand) {}

        func cancel() {
            downstream.take()
            subject?.remove(self)
        }
    }

    private let conduits = Mutex<[Conduit]>([])

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let conduit = Conduit(AnySubscriber(subscriber), subject: self)
        conduits.withLock { $0.append(conduit) }
        subscriber.receive(subscription: conduit)
    }

    func send(_ value: Int) {
        for conduit in conduits.withLock({ $0 }) {
            _ = conduit.downstream.value?.receive(value)
        }
    }

    func send(completion: Subscribers.Completion<Never>) {
        let finished = conduits.withLock { conduits in
            defer { conduits.removeAll() }
            return conduits
        }
        for conduit in finished { conduit.downstream.take()?.receive(completion: completion) }
    }

    private func remove(_ conduit: Conduit) {
        conduits.withLock { conduits in conduits.removeAll { $0 === conduit } }
    }
}

// MARK: - Cutoffs

/// The values one thread sends, 1, 2, 3…, and where an action racing them falls.
///
/// The cutoff method: a value is recorded as begun before it is sent and as sent once its send
/// returns. An action reads the last value sent before it begins (its lower cutoff) and the last
/// value begun after it returns (its upper cutoff): everything at or below the lower cutoff must
/// have arrived; nothing above the upper one may arrive; values in flight between the two may or
/// may not.
final class Sender: Sendable {
    private let begun = Atomic<Int>(0)
    private let sent = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)

    /// Sends 1 through `count`, in order, through `send`.
    func send(_ count: Int, through send: (Int) -> Void) {
        for value in 1...count {
            begun.store(value, ordering: .releasing)
            send(value)
            sent.store(value, ordering: .releasing)
        }
        finished.store(true, ordering: .releasing)
    }

    /// Waits (yielding its thread) until `value` is sent or the sender stops at `count`: where a
    /// racing action is to begin.
    func wait(until value: Int) {
        waitUntil("the sender to reach its value") {
            sent.load(ordering: .acquiring) >= value || finished.load(ordering: .acquiring)
        }
    }

    /// Runs `action` and returns its cutoffs on each of `senders`.
    static func cut(_ senders: [Sender], around action: () -> Void) -> [Cutoff] {
        let lower = senders.map { $0.sent.load(ordering: .acquiring) }
        action()
        return zip(lower, senders).map { Cutoff(lower: $0, upper: $1.begun.load(ordering: .acquiring)) }
    }
}

/// Where an action fell on a stream of values: see ``Sender``.
struct Cutoff: Sendable, Equatable {
    let lower: Int
    let upper: Int

    /// Whichever of two actions cut first: what arrived must respect the earlier one's upper bound
    /// only once both have returned (the one that did the work may be either).
    static func either(_ a: Cutoff, _ b: Cutoff) -> Cutoff {
        Cutoff(lower: min(a.lower, b.lower), upper: max(a.upper, b.upper))
    }
}

/// Checks what one receiver got from one sender cut at `cut`: 1, 2, … k, with everything at or
/// below the lower cutoff and nothing above the upper one.
func expectPrefix(
    _ received: [Int], cut: Cutoff, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        received == Array(0..<received.count).map { $0 + 1 }, "\(name): in order, none missed",
        sourceLocation: sourceLocation)
    #expect(
        received.count >= cut.lower, "\(name): all sent before the cut arrived",
        sourceLocation: sourceLocation)
    #expect(
        received.count <= cut.upper, "\(name): nothing sent after the cut arrived",
        sourceLocation: sourceLocation)
}

/// A flag one thread raises (releasing what it did before) and others read (acquiring it).
final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }

    var isRaised: Bool { raised.load(ordering: .acquiring) }
}

/// How many rounds a race runs: fewer under ThreadSanitizer, which slows every memory access.
#if TETHER_TSAN
let raceRounds = 60
#else
let raceRounds = 200
#endif

/// Where in `count` values round `round` puts its action: spread over the stream, the same each run.
func cutPoint(_ round: Int, of count: Int, salt: Int = 0) -> Int {
    1 + (round &* 7919 &+ salt &* 104_729) % count
}
