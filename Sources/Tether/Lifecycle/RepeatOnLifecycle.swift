extension Lifecycle {
    /// Runs `block` each time the lifecycle reaches `state`, cancels it each time it falls below,
    /// and returns when the lifecycle is destroyed.
    ///
    /// It acts on the state already reached when it is called: at or above `state`, `block`
    /// starts at once. A run cancelled by a fall below `state` is awaited before the next run
    /// starts, so two runs never overlap. Cancelling the calling task cancels the current run,
    /// waits for it to finish and returns; so does the lifecycle reaching `destroyed`.
    ///
    /// ```swift
    /// // In a screen's task: collect the orientation only while the screen is visible.
    /// await lifecycle.repeatOnLifecycle(.started) {
    ///     for await orientation in orientations { render(orientation) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state from which `block` runs: `created`, `started` or `resumed`.
    ///   - fileID: The file of the call site each run's task is named with; leave it to its default.
    ///   - line: The line of that call site; leave it to its default.
    ///   - block: The work; it should end promptly when cancelled.
    ///
    /// Thread-safe. `block` runs in a task that inherits the caller's priority and task locals, named
    /// by this call site (`Task.name`).
    public func repeatOnLifecycle(
        _ state: State, fileID: StaticString = #fileID, line: UInt = #line,
        _ block: @escaping @Sendable () async -> Void
    ) async {
        precondition(state > .initialized, "repeatOnLifecycle needs created, started or resumed")
        let name = TaskName(site: CallSite(fileID: fileID, line: line))
        let (states, continuation) = AsyncStream.makeStream(of: State.self)
        let token = observe(receiveCurrent: true) { reached in
            continuation.yield(reached)
            if reached == .destroyed { continuation.finish() }
        }
        var current: Task<Void, Never>?
        var running = false
        // Ends when the lifecycle is destroyed, or at once when the calling task is cancelled.
        for await reached in states {
            if reached >= state, !running {
                running = true
                let previous = current
                current = Task(name: name.text) {
                    await previous?.value
                    guard !Task.isCancelled else { return }
                    await block()
                }
            } else if reached < state, running {
                running = false
                current?.cancel()
            }
        }
        token.cancel()
        continuation.finish()
        current?.cancel()
        await current?.value
    }
}
