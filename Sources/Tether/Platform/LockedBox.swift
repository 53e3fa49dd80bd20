import Synchronization

/// State behind one lock, for what a `Mutex<State>` cannot hold.
///
/// `Mutex.withLock` hands out only `sending` results, so state that holds closures or subscribers
/// (which are not `Sendable`) cannot be read out of a `Mutex<State>`. This box is the one place
/// that trades the compiler's check for a lock held around every access: everything a class
/// keeps under a lock lives in one `State` struct inside one box.
///
/// ```swift
/// private let state = LockedBox(State())
/// let action = state.withLock { $0.cancel() }   // decide under the lock
/// action.run()                                   // call out after it
/// ```
///
/// Call nothing outside the box from `body`: run what the state decides after the lock is
/// released (releasing a closure can run a `deinit` that comes back here).
///
/// `@unchecked Sendable`: `lock` protects `value`, which is read and written only inside
/// ``withLock(_:)``. Unlike NIO's box it asks nothing of `Value` (it exists to hold what is not
/// `Sendable`), so the compiler checks nothing that goes in or comes out: a caller that carries a
/// value out of the box to another thread says why, where it does.
@usableFromInline
final class LockedBox<Value>: @unchecked Sendable {
    @usableFromInline let lock = Mutex(())
    /// Unchecked: the lock makes every access exclusive, so the runtime's check of each access
    /// (a thread-local lookup per lock) would only repeat it (Benchmarks/README.md, "Sends").
    @exclusivity(unchecked) @usableFromInline var value: Value

    @inlinable init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { _ in try body(&value) }
    }
}
