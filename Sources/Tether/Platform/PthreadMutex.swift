import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if TETHER_TSAN
// ThreadSanitizer cannot see the futex that `Synchronization.Mutex` locks with on Linux, so
// it reports races inside correctly locked sections (a four-thread append to a Mutex-guarded
// array is enough). `make tsan` builds with `-DTETHER_TSAN`, and inside this module `Mutex`
// then names the pthread mutex, whose lock and unlock TSan intercepts. Same API and
// semantics; never part of a normal build. The test targets and the other modules lock with it
// too, as `SanitizerMutex`.
@usableFromInline typealias Mutex<Value> = PthreadMutex<Value>
package typealias SanitizerMutex<Value> = PthreadMutex<Value>
#endif

#if canImport(Glibc) || canImport(Musl)
/// The lock of state that many threads take at once: the ledger's.
///
/// On Linux, `Synchronization.Mutex` is a priority-inheritance futex: an unlock that finds a
/// waiter hands the lock to it, and nobody can take it until that thread has been woken and
/// scheduled. With more threads than CPUs taking it all the time, every hand-over then costs a
/// wake-up, and the threads queue behind one another (Benchmarks/README.md, "Bind and end on many
/// threads"). A pthread mutex's unlock wakes a waiter but leaves the lock free, so a thread that is
/// running takes it meanwhile. Elsewhere `Synchronization.Mutex` (`os_unfair_lock`) does not hand
/// over, and is used.
typealias ContendedMutex<Value> = PthreadMutex<Value>
#else
typealias ContendedMutex<Value> = Mutex<Value>
#endif

/// A pthread mutex with its value, with `Synchronization.Mutex`'s API: the lock of
/// ``ContendedMutex`` on Linux, and of every `Mutex` in sanitizer builds.
///
/// `@unchecked Sendable`: `mutex` protects `value`, which is only touched between
/// `pthread_mutex_lock` and `pthread_mutex_unlock`.
@usableFromInline
package final class PthreadMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Behind a pointer rather than a stored `var`: a class property's dynamic exclusivity
    // marker for a zero-sized value (`Mutex(())`) aliases the object's header, and TSan then
    // reports the marker against unlocked reads of `mutex`.
    private let value: UnsafeMutablePointer<Value>

    @usableFromInline
    package init(_ initialValue: consuming sending Value) {
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

    @usableFromInline
    package func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
