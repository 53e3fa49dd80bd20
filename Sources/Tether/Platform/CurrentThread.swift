#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(WinSDK)
import WinSDK
#endif

/// The identity of the thread running now, to tell a call made from inside a handler (the same
/// thread) from one made elsewhere — including a task the handler started, which inherits its
/// task-local values and so cannot be told apart by them. Equal only while both threads live.
struct CurrentThread: Equatable, Sendable {
    private let raw: UInt

    static var id: CurrentThread {
        #if canImport(Darwin)
        CurrentThread(raw: UInt(bitPattern: pthread_self()))
        #elseif canImport(Glibc)
        CurrentThread(raw: UInt(pthread_self()))
        #elseif canImport(Musl)
        CurrentThread(raw: UInt(bitPattern: pthread_self()))
        #elseif canImport(WinSDK)
        CurrentThread(raw: UInt(GetCurrentThreadId()))
        #endif
    }
}
