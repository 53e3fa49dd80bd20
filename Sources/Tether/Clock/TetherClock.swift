import Dispatch
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A source of monotonic time that Tether reads and schedules on.
///
/// The ledger stamps its entries and events with `now` and schedules leak verdicts with
/// ``schedule(at:_:)``. Production code uses ``SystemClock``; tests and the lab's headless mode
/// inject a ``ManualClock`` and advance it, so nothing waits on the wall clock.
///
/// Conforming types must be safe to call from any thread.
public protocol TetherClock: Sendable {
    /// Time elapsed since the clock's origin.
    var now: Duration { get }

    /// Calls `action` once, as soon as `now` reaches `deadline`.
    ///
    /// - Returns: A token; cancelling it before the deadline means `action` never runs. Dropping
    ///   the token does not cancel.
    @discardableResult
    func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction

    /// Suspends until `now` reaches `deadline`; throws `CancellationError` if the calling task
    /// is cancelled first.
    func sleep(until deadline: Duration) async throws
}

extension TetherClock {
    /// Suspends for `duration` of this clock's time.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}

/// The real, monotonic clock (`ContinuousClock`).
///
/// Thread-safe. Scheduled actions run on a task of the global executor.
public struct SystemClock: TetherClock {
    /// The clock's reading at its origin, in nanoseconds.
    private let origin: Int64

    public init() { origin = Self.nanoseconds() }

    public var now: Duration { .nanoseconds(Self.nanoseconds() &- origin) }

    /// `ContinuousClock`'s reading, in nanoseconds, from the clock it reads.
    ///
    /// The ledger reads the time twice per binding (made, ended). Through `ContinuousClock.now`
    /// and `Instant` subtraction that is about 150 instructions a read, most of them building
    /// and subtracting 128-bit durations; this is one `clock_gettime` (no system call: the vDSO
    /// answers it) and a multiply.
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
        // A Dispatch timer rather than a sleeping Task: a Task is enqueued on the cooperative
        // pool at once, competing with the app's own tasks just when an owner ends (the ledger
        // arms its verdict timer then); a timer costs nothing until its deadline.
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

    public func sleep(until deadline: Duration) async throws {
        let wait = deadline - now
        if wait > .zero { try await Task.sleep(for: wait) } else { try Task.checkCancellation() }
    }
}

/// A token for an action scheduled on a ``TetherClock``. Sendable; dropping it does not cancel.
public struct ScheduledAction: Sendable {
    private let cancelAction: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) { cancelAction = cancel }

    /// Stops the action from running, if it has not run yet.
    public func cancel() { cancelAction() }
}

/// Set once when a scheduled action is cancelled. Sendable through its atomic.
private final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    func set() { flag.store(true, ordering: .releasing) }
}
