import Foundation
import Synchronization
import Tether

/// The adversarial suite of issue 13: callbacks that re-enter Tether, threads that race it, scale,
/// and teardown order. Its suites are nested here, so `swift test --filter Adversarial` runs them.
enum Adversarial {}

/// A place a callback fills or empties: for what is not `Sendable` (an `AnyCancellable` under
/// OpenCombine), and for the last reference to an owner, which a callback drops to run the
/// owner's `deinit` inside itself.
///
/// `@unchecked Sendable`: `lock` protects `stored`; what is taken out is released after unlocking.
final class Slot<Value>: @unchecked Sendable {
    private let lock = Mutex(())
    private var stored: Value?

    init(_ value: Value? = nil) { stored = value }

    /// The value, or nil once taken.
    var value: Value? { lock.withLock { _ in stored } }

    /// Puts `value` in; what was there is released after unlocking.
    func put(_ value: Value) {
        let replaced = lock.withLock { _ -> Value? in
            defer { stored = value }
            return stored
        }
        _ = replaced
    }

    /// Takes the value out. `_ = slot.take()` releases it at once.
    @discardableResult
    func take() -> Value? {
        lock.withLock { _ in
            defer { stored = nil }
            return stored
        }
    }
}

/// Runs each body on a thread of its own — real threads, not the cooperative pool, so that the
/// pool stays free to run the tasks the bodies start — all released together once every thread
/// is up. Returns when every body has returned.
func onThreads(_ bodies: [@Sendable () -> Void]) async {
    let ready = Atomic<Int>(0)
    let remaining = Atomic<Int>(bodies.count)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let done = Slot(done)
        for body in bodies {
            let thread = Thread {
                ready.add(1, ordering: .acquiringAndReleasing)
                while ready.load(ordering: .acquiring) < bodies.count { sched_yield() }
                body()
                if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    done.take()?.resume()
                }
            }
            thread.start()
        }
    }
}
