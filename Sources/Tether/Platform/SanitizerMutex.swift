#if TETHER_TSAN
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// ThreadSanitizer cannot see the futex that `Synchronization.Mutex` locks with on Linux, so
// it reports races inside correctly locked sections (a four-thread append to a Mutex-guarded
// array is enough). `make tsan` builds with `-DTETHER_TSAN`, and inside this module `Mutex`
// then names this pthread-backed lock, whose lock and unlock TSan intercepts. Same API and
// semantics; never part of a normal build.
@usableFromInline typealias Mutex<Value> = SanitizerMutex<Value>

/// A pthread mutex with its value, for sanitizer builds only (public there so the test targets
/// can lock with it too; it does not exist in normal builds).
///
/// `@unchecked Sendable`: `mutex` protects `value`, which is only touched between
/// `pthread_mutex_lock` and `pthread_mutex_unlock`.
public final class SanitizerMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Behind a pointer rather than a stored `var`: a class property's dynamic exclusivity
    // marker for a zero-sized value (`Mutex(())`) aliases the object's header, and TSan then
    // reports the marker against unlocked reads of `mutex`.
    private let value: UnsafeMutablePointer<Value>

    public init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
#endif
