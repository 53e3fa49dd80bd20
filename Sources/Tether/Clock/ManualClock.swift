import Synchronization

/// A clock that moves only when told to: the clock of deterministic tests and of the lab's
/// headless mode.
///
/// ``advance(by:)`` runs every scheduled action whose deadline it passes, in deadline order, on
/// the calling thread and before it returns; sleepers whose deadline passed are resumed (they
/// continue on their own executors). Thread-safe: the state is behind a `Mutex`, and actions and
/// continuations are called after it is unlocked.
///
/// ```swift
/// let clock = ManualClock()
/// let ledger = Ledger(clock: clock)
/// // … end an owner …
/// clock.advance(by: .milliseconds(300))   // the leak verdict runs here
/// ```
public final class ManualClock: TetherClock {
    private struct Waiter {
        var deadline: Duration
        var order: UInt64
        var action: Action
    }

    private enum Action {
        case call(@Sendable () -> Void)
        case resume(CheckedContinuation<Void, any Error>)
    }

    private struct State {
        var now: Duration = .zero
        var nextOrder: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
    }

    private let state = Mutex(State())

    /// Creates a clock that reads `start`.
    public init(start: Duration = .zero) {
        state.withLock { $0.now = start }
    }

    public var now: Duration { state.withLock { $0.now } }

    /// How many scheduled actions and sleepers are waiting for a deadline.
    public var pendingCount: Int { state.withLock { $0.waiters.count } }

    /// The earliest deadline anything waits for, if any.
    public var nextDeadline: Duration? { state.withLock { $0.waiters.values.map(\.deadline).min() } }

    @discardableResult
    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let (due, order) = state.withLock { state -> (Bool, UInt64) in
            if deadline <= state.now { return (true, 0) }
            let order = state.nextOrder
            state.nextOrder += 1
            state.waiters[order] = Waiter(deadline: deadline, order: order, action: .call(action))
            return (false, order)
        }
        if due {
            action()
            return ScheduledAction {}
        }
        return ScheduledAction { [weak self] in
            _ = self?.state.withLock { $0.waiters.removeValue(forKey: order) }
        }
    }

    public func sleep(until deadline: Duration) async throws {
        let order = state.withLock { state -> UInt64 in
            let order = state.nextOrder
            state.nextOrder += 1
            return order
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock: a cancellation that lands after this check finds the
                // waiter in place, because its handler takes the same lock to remove it.
                let outcome = state.withLock { state -> Result<Bool, CancellationError> in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(true) }
                    state.waiters[order] = Waiter(deadline: deadline, order: order, action: .resume(continuation))
                    return .success(false)
                }
                switch outcome {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(true): continuation.resume()
                case .success(false): break
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: order) }
            if case .resume(let continuation) = waiter?.action {
                continuation.resume(throwing: CancellationError())
            }
        }
        try Task.checkCancellation()
    }

    /// Moves time forward by `duration`, running what falls due on the way, in deadline order.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Moves time forward to `instant` (never backward), running what falls due on the way.
    ///
    /// Actions scheduled by a running action for a deadline not later than `instant` run too.
    public func advance(to instant: Duration) {
        while true {
            let next = state.withLock { state -> Waiter? in
                guard let first = state.waiters.values.min(by: { ($0.deadline, $0.order) < ($1.deadline, $1.order) }),
                    first.deadline <= instant
                else {
                    state.now = max(state.now, instant)
                    return nil
                }
                state.now = max(state.now, first.deadline)
                state.waiters[first.order] = nil
                return first
            }
            guard let next else { return }
            switch next.action {
            case .call(let action): action()
            case .resume(let continuation): continuation.resume()
            }
        }
    }
}
