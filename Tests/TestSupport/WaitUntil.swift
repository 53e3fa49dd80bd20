import Testing

/// Waits until `condition` holds — a wait on a condition, not on time — and records an issue
/// after a generous bound instead of hanging the run when it never holds.
///
/// It yields between checks, so tasks on the caller's executor can make progress; once a thousand
/// yields have not been enough, it also sleeps a millisecond between checks, so another thread or
/// process gets the CPU. It runs on the caller's actor: the condition may read that actor's state.
public func waitUntil(
    _ what: String = "a condition", within bound: Duration = .seconds(60),
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows {
    let deadline = ContinuousClock.now + bound
    var checks = 0
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        checks += 1
        if checks < 1_000 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    Issue.record("waited for \(what), which never held", sourceLocation: sourceLocation)
}
