import Synchronization

extension Ledger {
    /// Calls `handler` with each leak the ledger finds, once per verdict — not again when the
    /// owner is released late — until the returned token is cancelled or released.
    ///
    /// The handler runs on the thread that ran the verdict (the clock's), after the ledger is
    /// unlocked: it may take a snapshot or end lifetimes. Calls to one handler never overlap, and
    /// none starts after its cancellation has returned (a cancel from another thread waits for a
    /// call in progress — so a handler must not wait for a thread that may cancel its watch, as
    /// `DispatchQueue.main.sync` would for the main thread). Costs nothing while no handler is
    /// registered.
    ///
    /// ```swift
    /// let watch = Ledger.shared.onLeak { report in
    ///     print(report)   // the owner, each survivor with its call site, and a fix
    /// }
    /// ```
    public func onLeak(_ handler: @escaping @Sendable (LeakReport) -> Void) -> AnyCancellable {
        let watcher = LeakWatcher(handler)
        let key = takeKey()
        state.withLock { $0.leakWatchers[key] = watcher }
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
        while let chunk = evaluateDueVerdicts(now: now, atMost: 64) {
            judged = judged || chunk.judged
            reports += chunk.reports
        }
        if judged { changed() }
        if !reports.isEmpty {
            let watchers = state.withLock { Array($0.leakWatchers.values) }
            for report in reports {
                for watcher in watchers { watcher.tell(report) }
            }
        }
        scheduleVerdictsIfNeeded(notBefore: now + gracePeriod / 10)
    }

    /// Judges up to `limit` owners whose grace period ended by `now`, under one lock hold.
    /// Nil when none was due; else whether any was judged, and the leaks it reported.
    private func evaluateDueVerdicts(now: Duration, atMost limit: Int) -> (
        judged: Bool, reports: [LeakReport]
    )? {
        let capacity = eventCapacity
        let grace = gracePeriod
        return state.withLock { state in
            guard let due = state.takeDueVerdicts(now: now, atMost: limit) else { return nil }
            let found = due.compactMap { state.judge($0.owner, endedAt: $0.deadline - grace, now: now) }
            // Only the root owner is reported: a leak whose ancestor leaked too is dropped.
            var reports: [LeakReport] = []
            for owner in found where owner.isListed {
                guard let leak = state.leaks[owner.key] else { continue }
                if state.hasLeakedAncestor(owner) {
                    state.leaks[owner.key] = nil
                    continue
                }
                state.report(leak, of: owner, at: now, capacity: capacity)
                reports.append(leak.report)
            }
            return (!due.isEmpty, reports)
        }
    }

    /// Schedules the next verdict for the earliest pending deadline, but not before `notBefore`.
    ///
    /// With owners ending continuously the next deadline is microseconds away: rescheduling at
    /// most every tenth of the grace period judges them in batches instead of a timer per owner.
    private func scheduleVerdictsIfNeeded(notBefore: Duration) {
        let deadline = state.withLock { $0.takeVerdictDeadline() }
        if let deadline { scheduleVerdicts(at: max(deadline, notBefore)) }
    }

    func scheduleVerdicts(at deadline: Duration) {
        clock.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.verdictScheduled = false }
            self.evaluateDueVerdicts()
        }
    }
}

/// One ``Ledger/onLeak(_:)`` registration.
///
/// `lock` is held while the handler runs, so calls never overlap and a cancel from another thread
/// waits for the call in progress; a cancel from inside the handler (the same thread, found by
/// the task-local ``calling``) only marks it. `cancelled` is an atomic so that that mark needs no
/// lock.
final class LeakWatcher: Sendable {
    /// The watcher whose handler the current thread is running.
    @TaskLocal static var calling: ObjectIdentifier?

    private let handler: @Sendable (LeakReport) -> Void
    private let lock = Mutex(())
    private let cancelled = Atomic<Bool>(false)

    init(_ handler: @escaping @Sendable (LeakReport) -> Void) { self.handler = handler }

    func tell(_ report: LeakReport) {
        lock.withLock { _ in
            guard !cancelled.load(ordering: .acquiring) else { return }
            LeakWatcher.$calling.withValue(ObjectIdentifier(self)) { handler(report) }
        }
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
        guard LeakWatcher.calling != ObjectIdentifier(self) else { return }
        lock.withLock { _ in }  // waits for a call in progress on another thread
    }
}
