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

    /// Calls `action` once, when `now` reaches `deadline` or up to `tolerance` later: a clock on
    /// which each wake-up costs (``SystemClock``) may wait, so that actions due close together
    /// share one. The ledger's leak verdicts are scheduled so.
    @discardableResult
    func schedule(
        at deadline: Duration, tolerance: Duration, _ action: @escaping @Sendable () -> Void
    ) -> ScheduledAction

    /// Suspends until `now` reaches `deadline`; throws `CancellationError` if the calling task
    /// is cancelled first.
    func sleep(until deadline: Duration) async throws
}

extension TetherClock {
    /// Calls `action` at `deadline`, not later: a clock that does not wait (``ManualClock``) keeps
    /// a test that advances it to a deadline exact.
    @discardableResult
    public func schedule(
        at deadline: Duration, tolerance: Duration, _ action: @escaping @Sendable () -> Void
    ) -> ScheduledAction {
        schedule(at: deadline, action)
    }

    /// Suspends for `duration` of this clock's time.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}

/// A token for an action scheduled on a ``TetherClock``. Sendable; dropping it does not cancel.
public struct ScheduledAction: Sendable {
    private let cancelAction: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) { cancelAction = cancel }

    /// Stops the action from running, if it has not run yet.
    public func cancel() { cancelAction() }
}
