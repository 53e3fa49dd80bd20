extension Ledger {
    /// Calls `handler` with each leak the ledger finds, once — not again when the owner is
    /// released late — until the returned token is cancelled or released. A leak found at a
    /// child owner while its parent leaked is reported once the parent's leak ends.
    ///
    /// The handler runs on the thread that found the leak (the clock's, for a verdict), after the
    /// ledger is unlocked: it may take a snapshot or end lifetimes. Calls to one handler never
    /// overlap: a leak found during a call (one the handler's own ending makes due at once, or one
    /// found on another thread) is handed to the thread in the call, which makes it next. None
    /// starts after its cancellation has returned: a cancel from another thread — a task the
    /// handler started included — waits for a call in progress, so a handler must not wait for a
    /// thread that may cancel its watch, as `DispatchQueue.main.sync` would for the main thread.
    /// A handler may cancel its own watch. Costs nothing while no handler is registered.
    ///
    /// ```swift
    /// let watch = Ledger.shared.onLeak { report in
    ///     print(report)   // the owner, each survivor with its call site, and a fix
    /// }
    /// ```
    public func onLeak(_ handler: @escaping @Sendable (LeakReport) -> Void) -> AnyCancellable {
        let watcher = LeakWatcher(handler)
        let key = state.withLock { $0.keep(watcher, in: \.leakWatchers) }
        return AnyCancellable { [weak self] in
            watcher.cancel()
            let removed = self?.state.withLock { $0.leakWatchers.removeValue(forKey: key) }
            _ = removed
        }
    }

    /// Runs the leak verdicts whose grace period has passed. The ledger's clock calls this by
    /// itself; call it directly only with a clock that cannot schedule.
    public func evaluateDueVerdicts() {
        let now = clock.now
        // In chunks, one lock hold each: judging thousands of owners under one hold would stall
        // every thread binding or ending something meanwhile.
        var judged = false
        var reports: [LeakReport] = []
        while let chunk = state.withLock({ state -> (judged: Int, reports: [LeakReport])? in
            guard let judged = state.judgeDueOwners(now: now, atMost: 64) else { return nil }
            return (judged, state.takeUnheard())
        }) {
            judged = judged || chunk.judged > 0
            reports += chunk.reports
        }
        if judged { changed() }
        tell(reports)
        if let deadline = state.withLock({ $0.takeVerdictDeadline() }) { scheduleVerdicts(at: deadline) }
    }

    /// When the next verdict falls due, if an owner waits for one: what `LeakTracker` lets its
    /// clock reach for an owner that ended while the grace period passed.
    package var nextVerdictDeadline: Duration? {
        state.withLock { $0.nextVerdictDeadline }
    }

    /// Tells the leak handlers of `reports`, after the lock.
    func tell(_ reports: [LeakReport]) {
        guard !reports.isEmpty else { return }
        let watchers = state.withLock { Array($0.leakWatchers.values) }
        for report in reports {
            for watcher in watchers { watcher.tell(report) }
        }
    }

    /// Arms the verdict timer for `deadline`, the earliest pending one, with a tenth of the grace
    /// period's tolerance: with owners ending continuously the next deadline is microseconds
    /// away, and a clock whose wake-ups cost judges them in batches instead of one timer per
    /// owner. A ``ManualClock`` takes no tolerance: a test that advances it by the grace period
    /// after an end sees the verdict.
    func scheduleVerdicts(at deadline: Duration) {
        clock.schedule(at: deadline, tolerance: gracePeriod / 10) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.verdicts.timerFired() }
            self.evaluateDueVerdicts()
        }
    }
}
