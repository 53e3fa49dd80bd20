import OpenCombine
import Tether

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Bind and end on many threads at once, on one ledger, shared by the Lifetimes suite and the
// profile: each thread makes an owner, binds one subscription to its bag with `sink(boundTo:)`
// and lets the owner go, in a loop — what a server that binds per request on a thread pool does.

/// `count` owners bound and ended on each of `threads` threads at once, in `ledger`; returns when
/// every thread has exited.
public func bindAndEnd(_ count: Int, on threads: Int, in ledger: Ledger) {
    onThreads(threads) {
        let subject = PassthroughSubject<Int, Never>()
        for _ in 0..<count { _ = SinkOwner(subject, ledger: ledger) }
    }
}

/// An owner tracked in the ledger it is given, with one subscription bound to its bag.
final class SinkOwner {
    let bag: DisposeBag
    private var received = 0

    init(_ events: PassthroughSubject<Int, Never>, ledger: Ledger) {
        bag = DisposeBag(ledger: ledger)
        bag.track(self)
        events.sink(boundTo: bag) { [unowned self] in received &+= $0 }
    }
}

/// Runs `body` on `count` threads of their own at once, and joins them: when this returns, every
/// thread has exited (a thread still winding down as the benchmark's process exits can crash it).
func onThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var threads: [pthread_t] = []
    for _ in 0..<count {
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let started = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(Body(body)).toOpaque())
        precondition(started == 0, "pthread_create failed: \(started)")
        #if canImport(Darwin)
        threads.append(thread!)
        #else
        threads.append(thread)
        #endif
    }
    for thread in threads { pthread_join(thread, nil) }
}
