import Synchronization
import Testing

@testable import Tether

#if TETHER_TSAN
// Under `make tsan`, the tests' own locks are the pthread-backed one too: TSan cannot see the
// futex `Synchronization.Mutex` uses on Linux (see Tether's SanitizerMutex).
typealias Mutex<Value> = SanitizerMutex<Value>
#endif

/// A thread-safe list of what happened, in order, for whole-history assertions.
final class Recorder<Event: Sendable>: Sendable {
    private let storage = Mutex<[Event]>([])

    func record(_ event: Event) { storage.withLock { $0.append(event) } }

    var events: [Event] { storage.withLock { $0 } }
}

/// A ledger and the manual clock it runs on, one per test: tests run in parallel.
struct LedgerFixture {
    let clock = ManualClock()
    let ledger: Ledger

    init(gracePeriod: Duration = .milliseconds(300)) {
        ledger = Ledger(clock: clock, gracePeriod: gracePeriod)
    }

    func run<R>(_ body: () throws -> R) rethrows -> R {
        try Ledger.$current.withValue(ledger) { try body() }
    }

    /// Lets the grace period pass, running the verdicts that fall due.
    func passGracePeriod() { clock.advance(by: ledger.gracePeriod) }
}

/// An owner as users write one: it holds a bag and tracks itself in its init.
final class TrackedOwner {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// An owner whose bag is a child of another owner's.
final class TrackedChild {
    let bag: DisposeBag
    init(parent: DisposeBag) {
        bag = DisposeBag(boundTo: parent)
        bag.track(self)
    }
}

/// An owner that keeps itself — a retain cycle with no binding in it: nothing ever ends it.
final class SelfKeeping {
    let bag = DisposeBag()
    private var keeper: SelfKeeping?

    init() {
        bag.track(self)
        keeper = self
    }

    /// Breaks the cycle, after the check.
    func letGo() { keeper = nil }
}

/// A place a callback fills or empties, and a way to hand a value that is not `Sendable` (an
/// `AnyCancellable` or a subject under OpenCombine) to concurrent code that relies on the value's
/// own thread safety; and the last reference to an owner, which a callback drops to run the
/// owner's `deinit` inside itself. What is taken out or replaced is released after unlocking.
final class Slot<Value>: Sendable {
    private let stored: LockedBox<Value?>

    init(_ value: Value? = nil) { stored = LockedBox(value) }

    /// The value, or nil once taken.
    var value: Value? { stored.withLock { $0 } }

    /// Puts `value` in.
    func put(_ value: Value) {
        var replaced: Value? = value
        stored.withLock { swap(&$0, &replaced) }
    }

    /// Takes the value out. `slot.take()` alone releases it at once.
    @discardableResult
    func take() -> Value? { stored.withLock { $0.take() } }
}
