extension Ledger {
    /// Marks one repetition — a screen dismissed, a request served — and looks for growth: the
    /// live entries of each live owner are counted by call site and kind, and a site whose count
    /// rose at each of the last ``growthRepetitions`` checkpoints is growing (the first
    /// checkpoint compares with the ledger's start, where nothing was live).
    ///
    /// A growing site is listed in ``LedgerSnapshot/growth`` until the first checkpoint where its
    /// count did not rise, and reported once to ``onGrowth(_:)`` handlers when it starts growing.
    /// Entries of owners that ended are never growth: their leak verdict judges them.
    ///
    /// ```swift
    /// func sheetDidDismiss() {
    ///     Ledger.shared.checkpoint()
    /// }
    /// ```
    ///
    /// Costs one pass over the live entries, under the ledger's lock; recording costs nothing
    /// more in a program that never calls it. Handlers run on the calling thread, after unlocking.
    public func checkpoint() {
        let (started, watchers) = state.withLock { state in
            let started = state.checkpointGrowth()
            return (started, started.isEmpty ? [] : Array(state.growth.watchers.values))
        }
        changed()
        for watcher in watchers { watcher.tell(started) }
    }

    /// Calls `handler` with each site that starts growing: once per episode — a site that stops
    /// growing and later grows again is reported again — until the returned token is cancelled or
    /// released.
    ///
    /// The handler runs on the thread that called ``checkpoint()``, after the ledger is
    /// unlocked — or, when it is already running, on its own thread after it returns: calls never
    /// overlap. It may take a snapshot, end lifetimes or checkpoint again (what that finds is
    /// handed to it after it returns). No call starts after its cancellation has returned: a
    /// cancel from another thread waits for a call in progress, so a handler must not wait for a
    /// thread that may cancel its watch.
    ///
    /// ```swift
    /// let watch = Ledger.shared.onGrowth { report in
    ///     print(report)   // the owner, the site, the counts, and a fix
    /// }
    /// ```
    public func onGrowth(_ handler: @escaping @Sendable (GrowthReport) -> Void) -> AnyCancellable {
        let watcher = GrowthWatcher(handler)
        let key = state.withLock { $0.keep(watcher, in: \.growth.watchers) }
        return AnyCancellable { [weak self] in
            watcher.cancel()
            let removed = self?.state.withLock { $0.growth.watchers.removeValue(forKey: key) }
            _ = removed
        }
    }
}
