import Foundation

/// The one main-thread run loop of a program that keeps its main actor on the main OS thread:
/// the lab, headless or not, and attach all park the main thread here.
///
/// Parked, the main thread runs its run loop, which serves the main dispatch queue — so the main
/// actor — on this very thread, and sleeps while nothing is due. Not `dispatchMain()`: on Linux
/// it ends the main thread and worker threads drain the main queue, so ncurses calls would hop
/// threads. Call it from synchronous top-level code on the main thread; it never returns.
public enum MainRunLoop {
    /// Runs `body` on the main actor, from the main queue, and parks the main thread for the rest
    /// of the process. No task is made: what needs no Swift concurrency (attach) starts none.
    public static func park(_ body: @escaping @MainActor @Sendable () -> Void) -> Never {
        DispatchQueue.main.async { MainActor.assumeIsolated(body) }
        parkMainThread()
    }

    /// Runs `body` in a task on the main actor and parks the main thread until `body` returns,
    /// then exits the process with the code it returned.
    public static func run(_ body: @escaping @MainActor () async -> Int32) -> Never {
        Task { @MainActor in exit(await body()) }
        parkMainThread()
    }

    private static func parkMainThread() -> Never {
        precondition(Thread.isMainThread, "MainRunLoop parks the main thread: call it there")
        // The main run loop always has the main queue as a source, so this never returns.
        while true { RunLoop.main.run() }
    }
}
