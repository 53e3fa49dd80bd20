extension Ledger {
    /// Marks the end of one repetition of `scope` — a screen dismissed, a request served — and
    /// looks for growth: the live entries of each live owner are counted by call site and kind,
    /// and a site that *rose* in each of the scope's last ``growthRepetitions`` repetitions is
    /// growing.
    ///
    /// A site rose in a repetition when none of what it held as the repetition began went meanwhile
    /// (its fewest entries at once, its *floor*, held) and it ends the repetition holding more
    /// than it ever held at once before. A leak does both, one more each time; a busy owner whose
    /// entries come and go does neither for long — its floor falls as they end, and its count
    /// stays under the peak it reached — so it is not growth however its count moves.
    ///
    /// A repetition is what happened since the checkpoint before, whatever that one's scope: the
    /// first compares with the ledger's start, where nothing was live. Repetitions of one scope
    /// are compared with each other however many of other scopes come between them; those
    /// neither count nor interrupt. A screen stack passes the dismissed screen's id, so that
    /// visiting other screens between two visits of one screen hides nothing. A growing site is
    /// listed in ``LedgerSnapshot/growth`` until the first repetition of its scope in which it
    /// did not rise, and reported once to ``onGrowth(_:)`` handlers when it starts growing.
    /// Entries of owners that ended are never growth: their leak verdict judges them.
    ///
    /// ```swift
    /// func sheetDidDismiss() {
    ///     Ledger.shared.checkpoint(scope: "settings")
    /// }
    /// ```
    ///
    /// The ledger keeps each site's count as entries open and close, so a checkpoint reads the
    /// sites touched since the one before (every owner's, at the first), under the ledger's lock,
    /// and never walks the entries. Handlers run on the calling thread, after unlocking.
    ///
    /// - Parameter scope: What repeats: a screen's id, a kind of request. ``GrowthReport/defaultScope``
    ///   by default.
    public func checkpoint(scope: String = GrowthReport.defaultScope) {
        let (started, watchers) = state.withLock { state in
            let started = state.checkpointGrowth(scope: scope)
            return (started, started.isEmpty ? [] : Array(state.growth.watchers.values))
        }
        changed()
        for watcher in watchers { watcher.tell(started) }
    }

    /// Calls `handler` with each site that starts growing: once per episode — a site that stops
    /// growing and later grows again is reported again — until the returned token is cancelled or
    /// released.
    ///
    /// The handler runs on the thread that called ``checkpoint(scope:)``, after the ledger is
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
