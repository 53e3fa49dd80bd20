import Dispatch
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The real, monotonic clock (`ContinuousClock`'s).
///
/// Thread-safe. Scheduled actions run on a Dispatch global queue.
public struct SystemClock: TetherClock {
    /// The clock's reading at its origin, in nanoseconds.
    private let origin: Int64

    public init() { origin = Self.nanoseconds() }

    public var now: Duration { .nanoseconds(Self.nanoseconds() &- origin) }

    /// `ContinuousClock`'s reading in nanoseconds, from the clock it reads: the ledger reads the
    /// time twice per binding, and `ContinuousClock.Instant`'s arithmetic costs three times as
    /// much (Benchmarks/README.md).
    @inline(__always)
    private static func nanoseconds() -> Int64 {
        #if canImport(Darwin)
        Int64(truncatingIfNeeded: clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW))
        #else
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
        #endif
    }

    @discardableResult
    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        // A Dispatch timer, not a sleeping Task: a Task would take a place in the cooperative pool
        // just when an owner ends; a timer costs nothing until its deadline.
        let wait = deadline - now
        let cancelled = CancellationFlag()
        let nanoseconds = max(
            0, wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
            guard !cancelled.isSet else { return }
            action()
        }
        return ScheduledAction { cancelled.set() }
    }

    /// Waits the whole tolerance: each run of the ledger's verdicts then judges every owner due
    /// within it, one wake-up for owners ending close together instead of one each.
    @discardableResult
    public func schedule(
        at deadline: Duration, tolerance: Duration, _ action: @escaping @Sendable () -> Void
    ) -> ScheduledAction {
        schedule(at: deadline + tolerance, action)
    }

    public func sleep(until deadline: Duration) async throws {
        let wait = deadline - now
        if wait > .zero { try await Task.sleep(for: wait) } else { try Task.checkCancellation() }
    }
}

/// Set once when a scheduled action is cancelled. Sendable through its atomic.
private final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    func set() { flag.store(true, ordering: .releasing) }
}
