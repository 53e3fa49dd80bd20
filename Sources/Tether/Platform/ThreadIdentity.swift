#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The identity of a thread, to tell whether code runs on the thread that started something
/// (a task local would not do: unstructured tasks inherit it). Meaningful while the thread lives.
struct ThreadIdentity: Equatable, Sendable {
    private let raw: UInt

    /// The calling thread.
    static var current: ThreadIdentity {
        #if canImport(Darwin) || canImport(Musl)
        ThreadIdentity(raw: UInt(bitPattern: pthread_self()))
        #else
        ThreadIdentity(raw: UInt(pthread_self()))
        #endif
    }
}
