import Synchronization
import Testing
import Tether

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

/// Yields until `condition` holds — a wait on a condition, not on time. Records an issue after a
/// generous bound instead of hanging the run when the condition never comes.
/// Runs on the caller's actor, so the condition may read that actor's state.
func waitUntil(
    isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    for _ in 0..<1_000_000 {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("waited for a condition that never held", sourceLocation: sourceLocation)
}

extension Tag {
    /// Tests that measure the wall clock: run serially, apart from the logic tests.
    @Tag static var timing: Tag
}
