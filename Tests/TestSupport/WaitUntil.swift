import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits until `condition` holds — a wait on a condition, not on time — and records an issue
/// after a generous bound instead of hanging the run when it never holds.
///
/// It yields between checks, so tasks on the caller's executor can make progress; once a thousand
/// yields have not been enough, it also sleeps a millisecond between checks, so another thread or
/// process gets the CPU. It runs on the caller's actor: the condition may read that actor's state.
///
/// A race that must see the moment the condition holds checks it `yieldingEvery` times between
/// yields. Synchronous code on a plain thread waits with the other `waitUntil`, which has the same
/// meaning.
public func waitUntil(
    _ what: String = "a condition", within bound: Duration = .seconds(60), yieldingEvery checks: Int = 1,
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows {
    let deadline = ContinuousClock.now + bound
    var count = 0
    while try await !condition() {
        count += 1
        guard count % checks == 0 else { continue }
        guard ContinuousClock.now < deadline else {
            // A check that began before a long stall of the machine may have read a stale state.
            if try await condition() { return }
            Issue.record("waited for \(what), which never held", sourceLocation: sourceLocation)
            return
        }
        if count / checks < 1_000 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// Waits until `condition` holds, as the async `waitUntil` does, from synchronous code on a plain
/// thread: a thread waiting for another thread's progress.
///
/// It yields its thread between checks (every `yieldingEvery` checks, for a race that must see the
/// moment the condition holds), so the thread it waits for runs even on one core. It reads the
/// clock only every few thousand checks, so a hot spin costs little more than the checks. An issue
/// recorded on a thread no test started is the run's, not the test's: the run fails all the same.
/// Not for async code: there it would hold a thread the awaited tasks may need.
@available(*, noasync, message: "await the async waitUntil, which lets the caller's tasks run")
@_disfavoredOverload  // so that `await waitUntil { … }` is the async one
public func waitUntil(
    _ what: String = "a condition", within bound: Duration = .seconds(60), yieldingEvery checks: Int = 1,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) rethrows {
    guard try !condition() else { return }
    let deadline = ContinuousClock.now + bound
    var count = 0
    repeat {
        count &+= 1
        if count % 4_096 == 0, ContinuousClock.now >= deadline {
            Issue.record("waited for \(what), which never held", sourceLocation: sourceLocation)
            return
        }
        if count % checks == 0 { sched_yield() }
    } while try !condition()
}
